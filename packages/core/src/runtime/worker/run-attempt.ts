import type { Driver } from '../../contract/driver.js';
import type { ClaimedJob, Fence, Json } from '../../contract/records.js';
import type { StepRecord } from '../../contract/steps.js';
import { type BerthError, isBerthError } from '../../errors/berth-error.js';
import { screenJson } from '../../screen/values.js';
import type { AnyJobDefinition } from '../jobs/job-types.js';
import { type AttemptSpan, startAttemptSpan } from '../otel/attempt-span.js';
import {
  createStepApi,
  isRunSuspended,
  type RunSuspended,
  type Suspension,
} from '../steps/index.js';
import { timeoutsFor } from '../timers.js';
import { attemptAborted, attemptTimedOut, slotTaken } from './attempt-errors.js';
import { keepLease } from './lease-keeper.js';
import type { RuntimeLogger } from './logger.js';
import { createProgressReporter, type ProgressReporter } from './progress-reporter.js';
import type { LeaseClock } from './settle-retry.js';
import type { WorkerEmitter } from './worker-events.js';

/** How one attempt's handler ended. */
export type AttemptEnd =
  | { readonly kind: 'completed'; readonly result: Json | undefined }
  | { readonly kind: 'failed'; readonly error: unknown }
  | ({ readonly kind: 'suspended' } & Suspension)
  | { readonly kind: 'lease-lost'; readonly error: BerthError }
  /** The concurrency slot renewal failed: aborted as a lost lease, but the row is still ours. */
  | { readonly kind: 'slot-lost'; readonly error: BerthError }
  | { readonly kind: 'drained'; readonly error: BerthError }
  /** Never started: its concurrency key or rate limit was full (set by admission, not here). */
  | { readonly kind: 'key-busy'; readonly until: number; readonly waitFor?: string };

/** How the attempt ended; `handlerSettled` when the handler still runs (it ignored its abort). */
export interface AttemptOutcome {
  readonly end: AttemptEnd;
  readonly handlerSettled: Promise<void> | undefined;
}

export interface AttemptInput {
  readonly driver: Driver;
  readonly job: ClaimedJob;
  readonly fence: Fence;
  readonly definition: AnyJobDefinition;
  readonly workerId: string;
  readonly visibilityTimeoutMs: number;
  readonly renewIntervalMs: number;
  readonly logger: RuntimeLogger;
  /** Aborted by the worker with WORKER_DRAINING once a drain's grace has passed. */
  readonly controller: AbortController;
  readonly renewAlso: () => Promise<boolean>;
  /** Where the lease stands; the keeper moves it on each renewal. */
  readonly lease: LeaseClock;
  /** The run's stored steps, read once per attempt. */
  readonly steps: () => Promise<readonly StepRecord[]>;
  readonly defaultStepTimeoutMs?: number;
  readonly eventPollMs?: number;
  /** Where each progress value of this attempt that landed is told (`progress`). */
  readonly events?: WorkerEmitter;
}

// Size is the driver's to refuse at the ack; here the answer must be JSON at all.
const resultOf = (value: unknown): Json | undefined =>
  value === undefined ? undefined : screenJson('result', value, Number.POSITIVE_INFINITY).value;

/**
 * Runs the handler of one claimed job with its lease renewed, its timeout armed and its signal
 * wired to lease loss, and answers how it ended. An abort ends the attempt at once: a handler
 * that ignores its signal is left behind, and the fence keeps anything it writes from landing.
 */
export async function runAttempt(input: AttemptInput): Promise<AttemptOutcome> {
  const { driver, job, definition, controller } = input;
  const { signal } = controller;
  let lost: BerthError | undefined;
  let slotLost = false;
  const loseLease = (what: 'lease' | 'slot' = 'lease') => {
    if (signal.aborted) return;
    slotLost = what === 'slot';
    lost = slotLost ? slotTaken(job, input.workerId) : attemptAborted(job, input.workerId);
    controller.abort(lost);
  };
  const keeper = keepLease({
    driver,
    fence: input.fence,
    visibilityTimeoutMs: input.visibilityTimeoutMs,
    everyMs: input.renewIntervalMs,
    logger: input.logger,
    lease: input.lease,
    renewAlso: input.renewAlso,
    onLost: loseLease,
  });
  const cancelTimeout =
    definition.timeout === undefined
      ? () => {}
      : timeoutsFor(driver.clock)(() => {
          if (!signal.aborted) controller.abort(attemptTimedOut(job, definition.timeout ?? 0));
        }, definition.timeout);
  const stopped = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
  stopped.catch(() => {});

  let suspension: RunSuspended | undefined;
  const step = createStepApi({
    driver,
    job,
    fence: input.fence,
    signal,
    onLeaseLost: () => loseLease('lease'),
    steps: input.steps,
    onSuspend: (requested) => {
      suspension = requested;
    },
    ...(input.defaultStepTimeoutMs === undefined
      ? {}
      : { defaultStepTimeoutMs: input.defaultStepTimeoutMs }),
    ...(input.eventPollMs === undefined ? {} : { eventPollMs: input.eventPollMs }),
  });
  // Made on the first report: a job that never reports progress costs nothing.
  let reporter: ProgressReporter | undefined;
  const progress = (value: unknown) => {
    reporter ??= createProgressReporter({
      driver,
      fence: input.fence,
      logger: input.logger,
      onLanded: (value) => input.events?.emit('progress', { job, value }),
      onRefused: () => loseLease('lease'),
    });
    return reporter.report(value);
  };
  const span: AttemptSpan = await startAttemptSpan(job, input.workerId);
  // A drain that reached this attempt before its handler started: it never starts.
  const handler = signal.aborted
    ? Promise.reject<never>(signal.reason)
    : span.run(async () =>
        definition.run({
          payload: job.payload,
          step,
          signal,
          job,
          attempt: job.attempts,
          logger: input.logger,
          progress,
        }),
      );
  let handlerDone = false;
  const handlerSettled = handler.then(
    () => {
      handlerDone = true;
    },
    () => {
      handlerDone = true;
    },
  );

  let end: AttemptEnd;
  try {
    const result = await Promise.race([handler, stopped]);
    // A step asked to park the run and the handler swallowed it: the suspension still wins.
    end =
      suspension === undefined
        ? { kind: 'completed', result: resultOf(result) }
        : { kind: 'suspended', ...suspension.toSuspendOptions() };
  } catch (error) {
    if (lost !== undefined) end = { kind: slotLost ? 'slot-lost' : 'lease-lost', error: lost };
    else if (signal.aborted && isBerthError(signal.reason, 'WORKER_DRAINING')) {
      end = { kind: 'drained', error: signal.reason };
    } else if (!signal.aborted && suspension !== undefined) {
      // Also over an error thrown after a swallowed suspension (or one wrapping it).
      end = { kind: 'suspended', ...suspension.toSuspendOptions() };
    } else if (!signal.aborted && isRunSuspended(error)) {
      end = { kind: 'suspended', ...error.toSuspendOptions() };
    } else end = { kind: 'failed', error: signal.aborted ? signal.reason : error };
  } finally {
    keeper.stop();
    cancelTimeout();
  }
  // The last value lands before the settle clears the fence; a lost lease would refuse it.
  if (reporter !== undefined) await reporter.close(end.kind !== 'lease-lost');
  span.end(
    end.kind === 'failed' ||
      end.kind === 'lease-lost' ||
      end.kind === 'slot-lost' ||
      end.kind === 'drained'
      ? { state: end.kind, error: end.error }
      : { state: end.kind },
  );
  return { end, handlerSettled: handlerDone ? undefined : handlerSettled };
}
