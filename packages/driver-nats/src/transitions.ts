import {
  type AckOptions,
  type JobError,
  type Mutable,
  type NackOptions,
  nackOutcome,
  type ScreenedClaim,
} from '@berth/core/driver';
import { endedAttempt } from './attempts.js';
import type { StepLog, StoredJob } from './record.js';

/**
 * Every change a job record goes through, as pure functions from the record a write read to the
 * record it writes. Each write lands through one conditional update of the job's key, so these
 * are the whole of each operation's effect on the job.
 */

/** What a claim writes into a row whose lease lapsed on its final attempt. */
export const LEASE_LAPSED: JobError = {
  code: 'LEASE_LAPSED',
  message: 'the lease lapsed on the final attempt and no attempts remain',
};

/** The record with `fields` dropped (absent, never `undefined`). */
function without(job: StoredJob, ...fields: (keyof StoredJob)[]): StoredJob {
  const copy: Partial<Mutable<StoredJob>> = { ...job };
  for (const field of fields) delete copy[field];
  return copy as StoredJob;
}

/** The fence holds: running, under this worker and claim (a lapsed lease nobody re-claimed too). */
export const fenceHolds = (
  job: StoredJob | undefined,
  fence: { workerId: string; claim: number },
): job is StoredJob =>
  job !== undefined &&
  job.state === 'running' &&
  job.claimedBy === fence.workerId &&
  job.claim === fence.claim;

export const isLapsed = (job: StoredJob, now: number): boolean =>
  job.state === 'running' && job.visibleAt !== undefined && job.visibleAt <= now;

/** A claim: running under the worker; a resumed suspended run spends no attempt. */
export function taken(job: StoredJob, request: ScreenedClaim, now: number): StoredJob {
  const resumed = job.state === 'suspended';
  // A running row is a lapsed lease taken again: its attempt ended when the lease ran out.
  const lapsed = job.state === 'running' ? { attemptLog: endedAttempt(job, 'lapsed', now) } : {};
  return {
    ...without(job, 'waitFor', 'waitSeq'),
    ...lapsed,
    claimedAt: now,
    state: 'running',
    attempts: resumed ? job.attempts : job.attempts + 1,
    claim: job.claim + 1,
    claimedBy: request.workerId,
    visibleAt: now + request.visibilityTimeoutMs,
    updatedAt: now,
  };
}

/** A lease burial: the final attempt's lease lapsed. */
export function buried(job: StoredJob, failed: boolean, now: number): StoredJob {
  return {
    ...without(job, 'claimedBy', 'visibleAt'),
    attemptLog: endedAttempt(job, 'lapsed', now, LEASE_LAPSED),
    state: failed ? 'failed' : 'dead',
    finishedAt: now,
    updatedAt: now,
    lastError: LEASE_LAPSED,
  };
}

export function acked(job: StoredJob, options: AckOptions, now: number): StoredJob {
  return {
    ...without(job, 'claimedBy', 'visibleAt'),
    attemptLog: endedAttempt(job, 'completed', now),
    state: 'completed',
    finishedAt: now,
    updatedAt: now,
    ...(options.result === undefined ? {} : { result: options.result }),
  };
}

/**
 * A nack: `cancelled` with `cancel`, whatever else it says; else back to work while attempts
 * remain and not final, else dead (or failed).
 */
export function nacked(job: StoredJob, options: NackOptions, now: number): StoredJob {
  const base = {
    ...without(job, 'claimedBy', 'visibleAt'),
    attemptLog: endedAttempt(job, nackOutcome(job, options), now, options.error),
    lastError: options.error,
    updatedAt: now,
  };
  if (options.cancel === true) return { ...base, state: 'cancelled', finishedAt: now };
  if (options.final !== true && job.attempts < job.maxAttempts) {
    return options.retryAt !== undefined && options.retryAt > now
      ? { ...base, state: 'delayed', runAt: options.retryAt }
      : { ...base, state: 'ready', runAt: now };
  }
  return { ...base, state: options.deadLetter === false ? 'failed' : 'dead', finishedAt: now };
}

/** A suspend: due at `runAt`, waiting for `waitFor` events above `waitSeq` when it names one. */
export function suspended(
  job: StoredJob,
  runAt: number,
  waitFor: string | undefined,
  waitSeq: number,
  now: number,
): StoredJob {
  const base = { ...without(job, 'claimedBy', 'visibleAt', 'waitFor', 'waitSeq') };
  return {
    ...base,
    attemptLog: endedAttempt(job, 'suspended', now),
    state: 'suspended',
    runAt,
    updatedAt: now,
    ...(waitFor === undefined ? {} : { waitFor, waitSeq }),
  };
}

export const extended = (job: StoredJob, visibilityTimeoutMs: number, now: number): StoredJob => ({
  ...job,
  visibleAt: now + visibilityTimeoutMs,
  updatedAt: now,
});

export function cancelled(job: StoredJob, now: number): StoredJob {
  return {
    ...without(job, 'claimedBy', 'visibleAt', 'waitFor', 'waitSeq'),
    ...(job.state === 'running' ? { attemptLog: endedAttempt(job, 'cancelled', now) } : {}),
    state: 'cancelled',
    finishedAt: now,
    updatedAt: now,
  };
}

export const promoted = (job: StoredJob, now: number): StoredJob => ({
  ...job,
  state: 'ready',
  runAt: now,
  updatedAt: now,
});

/**
 * A requeue: ready now with attempts 0. `cut` is the step log after a fromStep's cut entry (that
 * step and every later one dropped); without it the steps stay as they are.
 */
export function requeued(job: StoredJob, cut: StepLog | undefined, now: number): StoredJob {
  const base = without(job, 'finishedAt', 'result', 'waitFor', 'waitSeq', 'claimedBy', 'visibleAt');
  const steps = cut ?? job.steps;
  const payload = job.spill?.payload;
  return {
    ...without(base, 'steps', 'spill'),
    state: 'ready',
    runAt: now,
    attempts: 0,
    updatedAt: now,
    ...(steps === undefined ? {} : { steps }),
    ...(payload === undefined ? {} : { spill: { payload } }),
  };
}
