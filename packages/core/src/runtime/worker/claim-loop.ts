import type { Clock } from '../../clock.js';
import { timeoutsFor } from '../timers.js';
import type { RuntimeLogger } from './logger.js';
import { errorFields } from './logger.js';

export interface ClaimLoopInput {
  readonly clock: Clock;
  readonly pollIntervalMs: number;
  readonly logger: RuntimeLogger;
  /** Free worker slots now. */
  readonly free: () => number;
  /** Claims up to `limit` jobs and starts them; answers how many it got. */
  readonly claim: (limit: number) => Promise<number>;
}

/**
 * When the worker claims: at start, on every wake, on every poll tick, and when a slot frees
 * while more work may be waiting (a wake not yet served, or a claim that filled every slot it
 * asked for). One claim at a time; asks that arrive meanwhile fold into one more pass.
 */
export class ClaimLoop {
  private running = false;
  private claiming: Promise<void> | undefined;
  private again = false;
  private moreWaiting = true;
  private cancelPoll = (): void => {};

  constructor(private readonly input: ClaimLoopInput) {}

  start(): void {
    this.running = true;
    this.armPoll();
    this.request();
  }

  /** Stops claiming; answers once a claim in flight has come back. */
  async stop(): Promise<void> {
    this.running = false;
    this.cancelPoll();
    await this.claiming;
  }

  /** New work may be there (a wake-up). */
  wake(): void {
    this.moreWaiting = true;
    this.request();
  }

  /** A worker slot came free. */
  slotFreed(): void {
    if (this.moreWaiting) this.request();
  }

  private armPoll(): void {
    this.cancelPoll = timeoutsFor(this.input.clock)(() => {
      if (!this.running) return;
      this.armPoll();
      this.moreWaiting = true;
      this.request();
    }, this.input.pollIntervalMs);
  }

  private request(): void {
    if (!this.running) return;
    if (this.claiming !== undefined) {
      this.again = true;
      return;
    }
    this.claiming = this.pass().finally(() => {
      this.claiming = undefined;
      // An ask that arrived after the pass's last look but before this line would be lost.
      if (this.again) this.request();
    });
  }

  private async pass(): Promise<void> {
    do {
      this.again = false;
      const limit = this.input.free();
      if (limit <= 0) return;
      try {
        const got = await this.input.claim(limit);
        // A full batch: more may wait. A short one: the queue is drained until the next wake.
        this.moreWaiting = got >= limit;
        if (this.moreWaiting) this.again = true;
      } catch (error) {
        this.input.logger.error('claim failed; trying again at the next poll', errorFields(error));
        this.again = false;
        return;
      }
    } while (this.again && this.running);
  }
}
