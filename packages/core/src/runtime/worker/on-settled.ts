import type { Clock } from '../../clock.js';
import type { JobRecord } from '../../contract/records.js';
import type { AnyJobDefinition, SettledContext, SettledOutcome } from '../jobs/job-types.js';
import { sleepFor } from '../timers.js';
import type { RuntimeLogger } from './logger.js';
import { errorFields, withFields } from './logger.js';
import { Emptying } from './waits.js';

/** Times `onSettled` is called while it throws, the first call included. */
export const ON_SETTLED_ATTEMPTS = 3;
/** The wait after its first failure, ms; doubled after each later one. */
export const ON_SETTLED_BACKOFF_MS = 100;

/**
 * Runs `call`; answers true once it returned, false when `signal` aborted first: a stopping
 * worker waits for no hook past its grace, as it waits for no handler that ignores its signal.
 */
async function finishedBeforeStop(
  signal: AbortSignal,
  call: () => Promise<void> | void,
): Promise<boolean> {
  let onAbort = (): void => {};
  const stopped = new Promise<false>((resolve) => {
    onAbort = () => resolve(false);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([
      Promise.resolve()
        .then(call)
        .then(() => true as const),
      stopped,
    ]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/**
 * Calls the job's `onSettled` after its settle landed, again (with backoff on the clock) while
 * it throws, at most ON_SETTLED_ATTEMPTS times. Failures are logged; the job's state is final
 * already and nothing here changes it. `signal` (a worker that has stopped) ends the retries,
 * and the wait for a call in progress.
 */
export async function runOnSettled(input: {
  readonly definition: AnyJobDefinition;
  readonly outcome: SettledOutcome;
  readonly context: SettledContext<unknown>;
  readonly clock: Clock;
  readonly logger: RuntimeLogger;
  readonly signal: AbortSignal;
}): Promise<void> {
  const { definition, logger } = input;
  if (definition.onSettled === undefined) return;
  for (let attempt = 1; attempt <= ON_SETTLED_ATTEMPTS; attempt += 1) {
    try {
      const call = () => definition.onSettled?.(input.outcome, input.context);
      if (!(await finishedBeforeStop(input.signal, call))) {
        logger.warn('onSettled was still running when the worker stopped; it is left behind', {
          state: input.outcome.state,
        });
      }
      return;
    } catch (error) {
      const fields = {
        ...errorFields(error),
        state: input.outcome.state,
        onSettledAttempt: attempt,
      };
      if (attempt === ON_SETTLED_ATTEMPTS) {
        logger.error(`onSettled threw ${ON_SETTLED_ATTEMPTS} times; giving up`, fields);
        return;
      }
      logger.warn('onSettled threw; calling it again', fields);
    }
    try {
      await sleepFor(input.clock, ON_SETTLED_BACKOFF_MS * 2 ** (attempt - 1), input.signal);
    } catch {
      logger.warn('onSettled was not called again: the worker stopped', {
        state: input.outcome.state,
      });
      return;
    }
  }
}

/**
 * What a worker runs once an outcome landed — its job's `onSettled`, a child's wake-up of its
 * parent — still in progress; stop() waits for them within its grace.
 */
export class SettledHooks {
  private readonly calls = new Set<Promise<void>>();
  private readonly ended = new Emptying(() => this.calls.size);
  private readonly stopping = new AbortController();

  constructor(
    private readonly clock: Clock,
    private readonly logger: RuntimeLogger,
  ) {}

  /** Starts the job's `onSettled`, when it has one, for an outcome that landed. */
  start(definition: AnyJobDefinition, outcome: SettledOutcome, job: JobRecord): void {
    if (definition.onSettled === undefined) return;
    const logger = withFields(this.logger, { jobId: job.id, job: job.name });
    const call = runOnSettled({
      definition,
      outcome,
      context: { payload: job.payload, job, attempt: job.attempts, logger },
      clock: this.clock,
      logger,
      signal: this.stopping.signal,
    });
    this.track(call);
  }

  /** Makes stop() wait for `work`, started for an outcome that landed. */
  track(work: Promise<void>): void {
    this.calls.add(work);
    void work.finally(() => {
      this.calls.delete(work);
      this.ended.changed();
    });
  }

  /** Resolves once every call started so far has ended. */
  wait(): Promise<void> {
    return this.ended.wait();
  }

  /** Retries no more and waits for no call in progress: each is left behind (logged). */
  abort(): void {
    this.stopping.abort();
  }
}
