import type { Driver } from '../../contract/driver.js';
import { findStaleReady } from '../stale/find-stale-ready.js';
import { timeoutsFor } from '../timers.js';
import type { RuntimeLogger } from './logger.js';
import { errorFields } from './logger.js';

export interface UnrunNamesInput {
  readonly driver: Driver;
  readonly queues: readonly string[];
  /** The names this worker runs. */
  readonly runs: ReadonlySet<string>;
  readonly staleAfterMs: number;
  readonly logger: RuntimeLogger;
}

/**
 * Warns once per (queue, name) when a queue this worker claims holds ready jobs of a name it
 * does not run, waiting longer than `staleAfterMs`: such jobs sit in `ready` until some worker
 * runs the name. Looks once every `staleAfterMs`, one list page per queue, walking on from
 * where the last look stopped, so the cost stays bounded whatever the backlog.
 */
export class UnrunNamesWatch {
  private readonly warned = new Set<string>();
  private readonly cursors = new Map<string, string>();
  private cancel = (): void => {};
  private looking: Promise<void> | undefined;

  constructor(private readonly input: UnrunNamesInput) {}

  start(): void {
    this.arm();
  }

  async stop(): Promise<void> {
    this.cancel();
    this.cancel = () => {};
    await this.looking;
  }

  private arm(): void {
    this.cancel = timeoutsFor(this.input.driver.clock)(() => {
      // A look still out (a slow backend) is not doubled.
      this.looking ??= this.look().finally(() => {
        this.looking = undefined;
      });
      this.arm();
    }, this.input.staleAfterMs);
  }

  private async look(): Promise<void> {
    const { driver, runs, staleAfterMs, logger } = this.input;
    for (const queue of this.input.queues) {
      try {
        const after = this.cursors.get(queue);
        const page = await findStaleReady(driver, {
          queue,
          staleAfterMs,
          pages: 1,
          ...(after === undefined ? {} : { after }),
          include: (name) => !runs.has(name) && !this.warned.has(key(queue, name)),
        });
        if (page.next === undefined) this.cursors.delete(queue);
        else this.cursors.set(queue, page.next);
        for (const stale of page.names) {
          this.warned.add(key(queue, stale.name));
          logger.warn(
            `queue ${JSON.stringify(queue)} holds ready ${JSON.stringify(stale.name)} jobs that this worker does not run, waiting over ${staleAfterMs} ms: unless other workers run it and are behind, add the job to a worker's jobs, or cancel them (berth jobs ls --queue ${JSON.stringify(queue)} --name ${JSON.stringify(stale.name)} --state ready)`,
            { queue, name: stale.name, oldestReadyAgeMs: stale.oldestReadyAgeMs },
          );
        }
      } catch (error) {
        this.cursors.delete(queue);
        logger.debug('looking for ready jobs of names no worker runs failed', errorFields(error));
      }
    }
  }
}

const key = (queue: string, name: string): string => JSON.stringify([queue, name]);
