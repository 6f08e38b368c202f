import type { ByIdOptions, JobError } from './records.js';

/**
 * How one attempt ended, by the change that ended it:
 * - `completed`: an ack.
 * - `retried`: a nack with attempts left and not `final` (the row went `ready` or `delayed`).
 * - `failed`: a nack that gave up (`dead`, or `failed` with `deadLetter: false`), unless its
 *   error's code is LEASE_LAPSED (then `lapsed`).
 * - `suspended`: a suspend (a step sleep or event wait); the resume is a new record of the
 *   same attempt number.
 * - `cancelled`: a cancel of the `running` row, or a nack with `cancel`.
 * - `lapsed`: the lease ran out and a claim took the row again (a re-claim) or buried it (its
 *   final attempt).
 */
export type AttemptOutcome =
  | 'completed'
  | 'retried'
  | 'failed'
  | 'suspended'
  | 'cancelled'
  | 'lapsed';

/** Every outcome, in the order above. */
export const ATTEMPT_OUTCOMES: readonly AttemptOutcome[] = [
  'completed',
  'retried',
  'failed',
  'suspended',
  'cancelled',
  'lapsed',
];

/**
 * The most records one job's history keeps: its FIRST record and the latest
 * `MAX_ATTEMPT_RECORDS - 1`. Writing record `seq = k` past the cap drops record
 * `k - MAX_ATTEMPT_RECORDS + 1` (the oldest after the first); `dropped` counts them.
 */
export const MAX_ATTEMPT_RECORDS = 10;
/** An attempt record's `error.message` is cut to this many bytes of UTF-8 (whole characters). */
export const MAX_ATTEMPT_MESSAGE_BYTES = 1_024;
/** An attempt record's `error.stack` is cut to this many bytes of UTF-8 (whole characters). */
export const MAX_ATTEMPT_STACK_BYTES = 4_096;

/** One ended attempt (one claim, from the claim to the change that ended it). */
export interface AttemptRecord {
  /**
   * The record's place in the job's history, from 1, counting dropped records too: it never
   * repeats for one job (a requeue continues it).
   */
  readonly seq: number;
  /** The job's `attempts` while it ran (a resumed suspended run keeps its number). */
  readonly attempt: number;
  /** The claim (fencing token) the attempt ran under. */
  readonly claim: number;
  /** The worker that claimed it (`claimedBy`). */
  readonly workerId: string;
  /** When the claim took the row (the claim's `now`). */
  readonly claimedAt: number;
  /** The `now` of the change that ended it: the settle, the cancel, or the claim that found the lease lapsed. */
  readonly endedAt: number;
  readonly outcome: AttemptOutcome;
  /**
   * Present when the ending change stored `lastError` (a nack, a lease burial): that error
   * with `message` cut to MAX_ATTEMPT_MESSAGE_BYTES and `stack` to MAX_ATTEMPT_STACK_BYTES
   * (each the longest prefix of whole characters within the bytes). A re-claim stores none.
   */
  readonly error?: JobError;
}

/** A job's attempt history: oldest first, bounded by MAX_ATTEMPT_RECORDS. */
export interface AttemptHistory {
  readonly records: readonly AttemptRecord[];
  /** Records dropped by the cap: the last record's `seq` minus the records kept. */
  readonly dropped: number;
}

/**
 * The attempt history kept with each job. A driver writes a record in the SAME atomic change
 * that ends the attempt, and only when that change lands:
 * - ack, nack, suspend (and each item of ackMany/nackMany) that land on their fence: a stale
 *   fence writes nothing, no record either;
 * - cancel of a `running` row (a cancel of a row not running ends no attempt);
 * - a claim that takes a `running` row again (its lease lapsed: `lapsed`, no error) or buries
 *   it (`lapsed`, the LEASE_LAPSED error it stores).
 * Nothing else writes one (extend, progress, steps, promote, requeue; a claim given back
 * because its answer was lost ends no attempt that ran). `claimedAt` is the instant of the
 * claim that took the row (a driver keeps it with the row while it runs). Purging (or deleting)
 * a job removes its history with it. Kit group: `attempts`.
 */
export interface AttemptStore {
  /**
   * The job's history, oldest first; `{ records: [], dropped: 0 }` for a job never settled
   * after a claim. `undefined` exactly when `get(jobId, options)` answers `undefined`: no such
   * job, or (with `tenantId`) a job of another tenant or of none. Bounded: at most
   * MAX_ATTEMPT_RECORDS records are read.
   */
  list(jobId: string, options?: ByIdOptions): Promise<AttemptHistory | undefined>;
}

/** What a backend implements: `list` gets a screened uuid and screened options. */
export interface AttemptBackend {
  list(jobId: string, options: ByIdOptions): Promise<AttemptHistory | undefined>;
}
