import type { BatchImplementation, BatchItem } from '../jobs/batch-types.js';
import type { ScheduleTimeout } from '../timers.js';
import type { RuntimeLogger } from './logger.js';

/** What a job brings to its batch: its handler context, as the worker made it. */
export interface BatchMember {
  readonly payload: unknown;
  readonly job: BatchItem<unknown>['job'];
  readonly attempt: number;
  readonly signal: AbortSignal;
}

/** A batch job's handler, as the worker runs it (the definition's `batch` and `run`). */
export type BatchHandler = Pick<BatchImplementation<unknown, unknown>, 'batch' | 'run'> & {
  readonly name: string;
};

interface Waiting {
  readonly member: BatchMember;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
  readonly leave: () => void;
}

/**
 * One worker's gathering of one batch job's attempts. Each attempt joins with its context and
 * is answered its own entry of the handler's answer; an attempt aborted while it waits leaves
 * the batch (its attempt ends on its own, as any aborted attempt does).
 */
class BatchCollector {
  private waiting: Waiting[] = [];
  private cancelTimer: (() => void) | undefined;

  constructor(
    private readonly handler: BatchHandler,
    private readonly schedule: ScheduleTimeout,
    private readonly logger: RuntimeLogger,
  ) {}

  join(member: BatchMember): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const { signal } = member;
      if (signal.aborted) return reject(signal.reason);
      const onAbort = () => {
        this.waiting = this.waiting.filter((other) => other !== entry);
        if (this.waiting.length === 0) this.stopTimer();
        reject(signal.reason);
      };
      const entry: Waiting = {
        member,
        resolve,
        reject,
        leave: () => signal.removeEventListener('abort', onAbort),
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
      if (this.waiting.length >= this.handler.batch.size) this.flush();
      else this.cancelTimer ??= this.schedule(() => this.flush(), this.handler.batch.waitMs);
    });
  }

  private stopTimer(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
  }

  private flush(): void {
    this.stopTimer();
    const batch = this.waiting;
    this.waiting = [];
    if (batch.length === 0) return;
    for (const entry of batch) entry.leave();
    void this.runBatch(batch);
  }

  private async runBatch(batch: readonly Waiting[]): Promise<void> {
    const items = batch.map(({ member }) => ({
      payload: member.payload,
      job: member.job,
      attempt: member.attempt,
    }));
    try {
      const answer = await this.handler.run(items, {
        signal: allAborted(batch.map(({ member }) => member.signal)),
        logger: this.logger,
      });
      if (!Array.isArray(answer) || answer.length !== batch.length) {
        throw new TypeError(
          `the batch handler of ${this.handler.name} answered ${
            Array.isArray(answer) ? `${answer.length} entries` : 'no array'
          } for ${batch.length} jobs: it must answer one entry (a result or an Error) per item, in order`,
        );
      }
      batch.forEach((entry, index) => {
        const value: unknown = answer[index];
        if (value instanceof Error) entry.reject(value);
        else entry.resolve(value);
      });
    } catch (error) {
      for (const entry of batch) entry.reject(error);
    }
  }
}

/** A signal that aborts once every one of `signals` has (with the last one's reason). */
function allAborted(signals: readonly AbortSignal[]): AbortSignal {
  const controller = new AbortController();
  let live = signals.length;
  const onAbort = (signal: AbortSignal) => () => {
    live -= 1;
    if (live === 0) controller.abort(signal.reason);
  };
  for (const signal of signals) {
    if (signal.aborted) onAbort(signal)();
    else signal.addEventListener('abort', onAbort(signal), { once: true });
  }
  return controller.signal;
}

/** A worker's batch collectors, one per batch job, made on the first job of each. */
export class BatchCollectors {
  private readonly byHandler = new Map<BatchHandler, BatchCollector>();

  constructor(
    private readonly schedule: ScheduleTimeout,
    private readonly logger: RuntimeLogger,
  ) {}

  join(handler: BatchHandler, member: BatchMember): Promise<unknown> {
    let collector = this.byHandler.get(handler);
    if (collector === undefined) {
      collector = new BatchCollector(handler, this.schedule, this.logger);
      this.byHandler.set(handler, collector);
    }
    return collector.join(member);
  }
}
