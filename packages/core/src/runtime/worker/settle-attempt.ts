import type { Driver } from '../../contract/driver.js';
import type { ClaimedJob, Fence, NackItem, SuspendOptions } from '../../contract/records.js';
import { backoffDelay } from '../jobs/backoff.js';
import { toJobError } from '../jobs/job-error.js';
import type { ResolvedRetry, SettledOutcome } from '../jobs/job-types.js';
import { isRetryable } from '../jobs/non-retryable.js';
import { retryAfterOf } from '../jobs/retry-after.js';
import { announceJobSettled } from '../settle-hub.js';
import type { RuntimeLogger } from './logger.js';
import { errorFields } from './logger.js';
import type { AttemptEnd } from './run-attempt.js';
import {
  ackLandedEarlier,
  cancelLandedEarlier,
  type NackOutcome,
  nackLandedAs,
  suspendLandedEarlier,
} from './settle-landed.js';
import { type LeaseClock, retrySettle, SettleGaveUp } from './settle-retry.js';
import type { WorkerCore } from './worker-core.js';
import type { SuspendReason } from './worker-types.js';

/** What a settle reads of its worker: the shared state (worker-core.ts), narrowed. */
export type SettleWorker = Pick<
  WorkerCore,
  'driver' | 'batcher' | 'events' | 'random' | 'settings' | 'stopped' | 'loop'
>;

/** One attempt's settle: how it ended, and its job, fence and lease, for the retries. */
export interface SettleParams {
  readonly worker: SettleWorker;
  /** The attempt's logger (its job's id, name and attempt on every line). */
  readonly logger: RuntimeLogger;
  readonly job: ClaimedJob;
  readonly fence: Fence;
  readonly lease: LeaseClock;
  readonly retry: ResolvedRetry;
  readonly end: AttemptEnd;
  /** The first send of this settle went out in a batch and failed with this. */
  readonly failedOnce?: { readonly error: unknown } | undefined;
}

/**
 * Sends a settle, again while it fails (see retrySettle). Answers whether it landed, or
 * `resent` when a resend answered false: the send before it may have landed with its answer
 * lost, which only the row can tell (settle-landed).
 */
async function send(at: SettleParams, call: () => Promise<boolean>): Promise<boolean | 'resent'> {
  let sends = at.failedOnce === undefined ? 0 : 1;
  const { worker } = at;
  const landed = await retrySettle({
    ...(at.failedOnce === undefined ? {} : { failedOnce: at.failedOnce }),
    driver: worker.driver,
    clock: worker.driver.clock,
    fence: at.fence,
    lease: at.lease,
    visibilityTimeoutMs: worker.settings.visibilityTimeoutMs,
    stopped: worker.stopped,
    logger: at.logger,
    send: () => {
      sends += 1;
      return call();
    },
  });
  return landed || sends === 1 ? landed : 'resent';
}

/**
 * The nack a failed attempt sends: final when the error is non-retryable; otherwise a retry at
 * the backoff, or at the wait the error names (`RetryAfterError`), and where a give-up goes.
 */
export function nackFor(failed: {
  readonly fence: Fence;
  readonly job: ClaimedJob;
  readonly error: unknown;
  readonly retry: ResolvedRetry;
  readonly now: number;
  readonly random: () => number;
}): { item: NackItem; outcome: NackOutcome } {
  const { fence, job, error, retry } = failed;
  const jobError = toJobError(error);
  const final = !isRetryable(error) || job.attempts >= job.maxAttempts;
  if (final) {
    return {
      item: {
        fence,
        error: jobError,
        final: true,
        ...(retry.deadLetter ? {} : { deadLetter: false }),
      },
      outcome: { state: retry.deadLetter ? 'dead' : 'failed', error: jobError },
    };
  }
  const delay = retryAfterOf(error) ?? backoffDelay(retry.backoff, job.attempts, failed.random);
  const retryAt = failed.now + delay;
  return {
    item: { fence, error: jobError, ...(delay > 0 ? { retryAt } : {}) },
    outcome: { state: 'retrying', error: jobError, retryAt },
  };
}

/** A step's suspension as `driver.suspend` takes it, absent fields left out. */
const suspendOptionsOf = (end: Extract<AttemptEnd, { kind: 'suspended' }>): SuspendOptions => {
  const { kind: _kind, ...options } = end;
  return options;
};

async function suspend(
  at: SettleParams,
  options: SuspendOptions,
  reason: SuspendReason,
): Promise<void> {
  const { worker, logger, job, fence } = at;
  const { driver } = worker;
  const { until, waitFor } = options;
  const answer = await send(at, () => driver.suspend(fence, options));
  const landed = answer === 'resent' ? await suspendLandedEarlier(driver, fence, job) : answer;
  if (!landed) {
    logger.info('the suspend did not land: the job was cancelled or taken over', { reason });
    return;
  }
  worker.loop.dueAt(until);
  worker.events.emit('suspended', {
    name: job.name,
    job,
    until,
    reason,
    ...(waitFor === undefined ? {} : { waitFor }),
  });
}

/**
 * Lands what an attempt ended with (ack, nack, suspend, or a drain's hand-back) and emits the
 * event; answers the outcome `onSettled` is told, when an ack or nack landed.
 */
export async function settleAttempt(at: SettleParams): Promise<SettledOutcome | undefined> {
  const { worker, logger, job, fence, end } = at;
  const { driver, batcher, events } = worker;
  try {
    switch (end.kind) {
      case 'completed': {
        const item = { fence, ...(end.result === undefined ? {} : { result: end.result }) };
        const answer = await send(at, () => batcher.ack(item));
        const landed = answer === 'resent' ? await ackLandedEarlier(driver, fence) : answer;
        if (!landed) {
          logger.info('the ack did not land: the job was cancelled or taken over');
          return undefined;
        }
        events.emit('completed', { name: job.name, job, result: end.result });
        announceJobSettled(driver, job.id);
        return { state: 'completed', result: end.result };
      }
      case 'failed': {
        const { item, outcome: meant } = nackFor({
          fence,
          job,
          error: end.error,
          retry: at.retry,
          now: driver.clock.now(),
          random: worker.random,
        });
        logger.debug('the attempt failed', { ...errorFields(end.error), next: meant.state });
        const answer = await send(at, () => batcher.nack(item));
        const outcome =
          answer === 'resent'
            ? await nackLandedAs({ driver, fence, job, item, outcome: meant })
            : answer
              ? meant
              : undefined;
        if (outcome === undefined) {
          logger.info('the nack did not land: the job was cancelled or taken over');
          return undefined;
        }
        if (outcome.state === 'retrying') {
          worker.loop.dueAt(outcome.retryAt);
          events.emit('retrying', {
            name: job.name,
            job,
            error: outcome.error,
            retryAt: outcome.retryAt,
          });
        } else {
          events.emit(outcome.state, { name: job.name, job, error: outcome.error });
          announceJobSettled(driver, job.id);
        }
        return outcome;
      }
      case 'suspended':
        await suspend(at, suspendOptionsOf(end), 'step');
        return undefined;
      case 'not-run': {
        const item = { fence, error: end.error, cancel: true };
        const answer = await send(at, () => batcher.nack(item));
        const landed =
          answer === 'resent' ? await cancelLandedEarlier(driver, fence, end.error.code) : answer;
        if (!landed) {
          logger.info('the cancel did not land: the job was cancelled or taken over');
          return undefined;
        }
        logger.debug('the job was not run', { code: end.error.code });
        events.emit('cancelled', { name: job.name, job, error: end.error });
        announceJobSettled(driver, job.id);
        return undefined;
      }
      case 'key-busy':
        // A suspend, not a nack: the bounce is no attempt, and the worker slot frees at once.
        await suspend(
          at,
          { until: end.until, ...(end.waitFor === undefined ? {} : { waitFor: end.waitFor }) },
          'key-busy',
        );
        return undefined;
      case 'drained':
        // A suspend due now keeps `attempts` (its claim is a resume), so the drained attempt
        // costs the job nothing, cannot dead-letter it, and wakes another worker at once.
        await suspend(at, { until: driver.clock.now() }, 'drain');
        return undefined;
      case 'lease-lost':
        events.emit('lease-lost', { name: job.name, job, error: end.error });
        // A cancel is deliberate: said at info. A lease lost otherwise (taken over) is a warning.
        if (await wasCancelled(driver, job)) {
          logger.info('the attempt was aborted: the job was cancelled', errorFields(end.error));
        } else {
          logger.warn(
            'the attempt was aborted: its lease was lost (taken over, or settled elsewhere)',
            errorFields(end.error),
          );
        }
        return undefined;
      case 'slot-lost':
        // Aborted as a lost lease is, but the row is still ours: hand it back at once, the
        // attempt not counted, to wait for the slot again.
        events.emit('lease-lost', { name: job.name, job, error: end.error });
        logger.warn(
          'the attempt was aborted: its concurrency slot was lost',
          errorFields(end.error),
        );
        await suspend(at, { until: driver.clock.now() }, 'slot-lost');
        return undefined;
    }
  } catch (error) {
    // Given up: the row is still running under this claim; its lease lapses and the job runs
    // again (or, on its final attempt, is buried LEASE_LAPSED).
    const cause = error instanceof SettleGaveUp ? error.cause : error;
    const tries = error instanceof SettleGaveUp ? error.tries : 1;
    logger.error(`settling the attempt (${end.kind}) failed ${tries} times; giving up`, {
      ...errorFields(cause),
      tries,
    });
    if (end.kind !== 'lease-lost') {
      events.emit('settle-failed', {
        name: job.name,
        job,
        settle: end.kind,
        error: cause,
        tries,
      });
    }
    return undefined;
  }
}

/** Whether the row now says `cancelled`: one read, and only after a lease was lost. */
async function wasCancelled(driver: Driver, job: ClaimedJob): Promise<boolean> {
  try {
    const row = await driver.get(
      job.id,
      job.tenantId === undefined ? {} : { tenantId: job.tenantId },
    );
    return row?.state === 'cancelled';
  } catch {
    return false;
  }
}
