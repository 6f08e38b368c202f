import type { Json } from './records.js';

/**
 * The backfill ledger: one record per run of a backfill (a job that walks a collection by
 * cursor, one pass at a time; see `defineBackfill`). The cursor advances only when a pass
 * commits, so a runner that dies resumes at the last committed cursor and never re-runs a
 * committed pass. Kit group: `backfills`.
 *
 * Tenancy: a run may belong to a tenant. Every by-id call and `list` that names a `tenantId`
 * sees only that tenant's runs (another tenant's run answers as missing); a call without one is
 * an operator's and sees every run.
 */

/** Where a run stands. `completed`, `failed` and `cancelled` are final: nothing moves them. */
export type BackfillStatus = 'running' | 'paused' | 'completed' | 'failed' | 'cancelled';

export const BACKFILL_STATUSES: readonly BackfillStatus[] = [
  'running',
  'paused',
  'completed',
  'failed',
  'cancelled',
];

/** A run holds its name's place until it ends: one of these, `maxActive` counts it. */
export const ACTIVE_BACKFILL_STATUSES: readonly BackfillStatus[] = ['running', 'paused'];

/** Final runs kept per name and tenant; `start` drops the oldest past it in its own change. */
export const BACKFILL_RUNS_KEPT = 50;

/** The most runs one `list` answers. */
export const MAX_BACKFILL_LIST_LIMIT = 100;

/** A cursor's JSON text may be this long at most (UTF-8 bytes): it is a position, not data. */
export const MAX_BACKFILL_CURSOR_BYTES = 4_096;

/** A run's `lastError` is cut to this many characters. */
export const MAX_BACKFILL_ERROR_LENGTH = 2_000;

/** A run as every ledger call answers it. */
export interface BackfillRun {
  /** Chosen by the caller of `start` (a UUID): a retried start answers the same run. */
  readonly runId: string;
  /** The backfill's name (`defineBackfill({ name })`). */
  readonly name: string;
  readonly tenantId?: string;
  readonly status: BackfillStatus;
  /**
   * Where the next pass starts: the last committed pass's `next`, or the start's cursor before
   * any pass (null: the collection's beginning).
   */
  readonly cursor: Json | null;
  /** Committed passes. The commit of a pass names how many there were when it began. */
  readonly passes: number;
  /** The sum of the committed passes' `rows`. */
  readonly rowsDone: number;
  /** The job that drives the run; a resume hands the run to a new one. */
  readonly jobId: string;
  /** The driver's clock, epoch ms. */
  readonly startedAt: number;
  /** The last change of any field. */
  readonly updatedAt: number;
  /** Set by the change that made the status final. */
  readonly finishedAt?: number;
  /** The latest failure a runner reported (at most MAX_BACKFILL_ERROR_LENGTH characters). */
  readonly lastError?: string;
}

/** A screened `start`. */
export interface BackfillStart {
  readonly runId: string;
  readonly name: string;
  readonly tenantId: string | undefined;
  readonly cursor: Json | null;
  readonly jobId: string;
  /** At most this many runs of `(name, tenantId)` running or paused at once, this one counted. */
  readonly maxActive: number;
}

/** What `start` answers: the run, or the active runs that hold every place. */
export type BackfillStarted =
  | { readonly started: true; readonly run: BackfillRun }
  | { readonly started: false; readonly active: readonly BackfillRun[] };

/** A screened status change. */
export interface BackfillTransition {
  readonly runId: string;
  readonly tenantId: string | undefined;
  /** The change lands only from one of these statuses. */
  readonly from: readonly BackfillStatus[];
  readonly to: BackfillStatus;
  /** Hands the run to this runner job (a resume). */
  readonly jobId?: string;
  /** Stored as `lastError` (a runner's final failure). */
  readonly error?: string;
}

/** A screened pass commit. */
export interface BackfillCommit {
  readonly runId: string;
  /** The runner job that ran the pass: a job the run was taken from commits nothing. */
  readonly jobId: string;
  /** The run's `passes` when the pass began: a second commit of one pass lands nothing. */
  readonly passes: number;
  /** Where the next pass starts; null: the collection is done and the run completes. */
  readonly next: Json | null;
  /** Rows the pass did, added to `rowsDone`. */
  readonly rows: number;
}

/** What a transition or a commit answers: whether it landed, and the run as it now stands. */
export interface BackfillChange {
  readonly changed: boolean;
  readonly run: BackfillRun;
}

/** A screened `list`: newest start first. */
export interface BackfillListRequest {
  readonly name: string | undefined;
  readonly status: BackfillStatus | undefined;
  readonly tenantId: string | undefined;
  /** 1..MAX_BACKFILL_LIST_LIMIT. */
  readonly limit: number;
}

/**
 * What a driver author implements (`DriverBackend.backfills`); inputs are screened. Each call
 * is ONE atomic change (pg: one statement; redis: one script; NATS: one conditional write of
 * the entry holding every run of the name and tenant, found by a create-only pointer from the
 * runId; memory: one synchronous change), so a caller that lost an answer and retries, or a
 * sibling racing it, reads one consistent ledger.
 * - start: a run with `runId` already stored answers `{ started: true, run }` as stored, and
 *   changes nothing (a retried start). Otherwise, when `maxActive` runs of `(name, tenantId)`
 *   are running or paused, answers `{ started: false, active }` (those runs, oldest start
 *   first) and stores nothing. Otherwise stores the run `running` at `now` (passes 0, rowsDone
 *   0, `startedAt = updatedAt = now`), drops the oldest final runs of `(name, tenantId)` past
 *   BACKFILL_RUNS_KEPT, and answers `{ started: true, run }`.
 * - get: the run, or undefined (none, or another tenant's when `tenantId` is given).
 * - transition: undefined when get would answer undefined. When the status is one of `from`,
 *   sets `status = to`, `jobId` and `lastError` when given, `updatedAt = now`, and
 *   `finishedAt = now` when `to` is final, answering `{ changed: true, run }`; otherwise
 *   changes nothing and answers `{ changed: false, run }`.
 * - commit: undefined when the run is missing. Lands only while the status is `running` or
 *   `paused` (a pass in flight when a pause landed counts; one in flight at a cancel does not),
 *   the stored `jobId` equals the commit's and the stored `passes` equals the commit's; then
 *   sets `cursor = next`, adds `rows`, `passes + 1`, `updatedAt = now`, and when `next` is null
 *   `status = completed`, `finishedAt = now`; answers `{ changed: true, run }`. Otherwise
 *   changes nothing and answers `{ changed: false, run }`. The `(jobId, passes)` pair fences
 *   the run as a lease token fences a job: a runner the run was taken from, or a zombie of the
 *   current one racing its successor, never commits a pass twice.
 * - list: runs matching every given filter, `startedAt` desc then `runId` desc, at most `limit`.
 *   Its cost is bounded by the ledger's retention (runs kept per name), never by history.
 * Durability: a run is stored like a job row (see each driver README's durability table).
 */
export interface BackfillBackend {
  start(run: BackfillStart): Promise<BackfillStarted>;
  get(runId: string, tenantId: string | undefined): Promise<BackfillRun | undefined>;
  transition(change: BackfillTransition): Promise<BackfillChange | undefined>;
  commit(pass: BackfillCommit): Promise<BackfillChange | undefined>;
  list(request: BackfillListRequest): Promise<readonly BackfillRun[]>;
}

/** Options of `list` as apps give them. */
export interface BackfillListOptions {
  readonly name?: string;
  readonly status?: BackfillStatus;
  readonly tenantId?: string;
  /** Default 20, at most MAX_BACKFILL_LIST_LIMIT. */
  readonly limit?: number;
}

/** Options of a by-id call. */
export interface BackfillByIdOptions {
  readonly tenantId?: string;
}

/** A `start` as apps give it to the ledger (the client's `backfills.start` fills it). */
export interface BackfillStartRequest {
  readonly runId: string;
  readonly name: string;
  readonly tenantId?: string;
  readonly cursor?: Json | null;
  readonly jobId: string;
  /** Default 1: one run per name (and tenant) at a time. */
  readonly maxActive?: number;
}

/** A transition as apps give it. */
export interface BackfillTransitionRequest extends BackfillByIdOptions {
  readonly from: readonly BackfillStatus[];
  readonly to: BackfillStatus;
  readonly jobId?: string;
  readonly error?: string;
}

/** A commit as a runner gives it. */
export interface BackfillCommitRequest {
  readonly jobId: string;
  readonly passes: number;
  readonly next: Json | null;
  readonly rows: number;
}

/**
 * The ledger as the runtime and apps see it (`driver.backfills`): the backend's calls, each
 * screened by core first (names as enqueue's `name`, ids as job ids, a cursor JSON of at most
 * MAX_BACKFILL_CURSOR_BYTES, counts non-negative integers, a status one of BACKFILL_STATUSES;
 * otherwise JOB_INVALID naming the field).
 */
export interface BackfillLedger {
  start(request: BackfillStartRequest): Promise<BackfillStarted>;
  get(runId: string, options?: BackfillByIdOptions): Promise<BackfillRun | undefined>;
  transition(runId: string, change: BackfillTransitionRequest): Promise<BackfillChange | undefined>;
  commit(runId: string, pass: BackfillCommitRequest): Promise<BackfillChange | undefined>;
  list(options?: BackfillListOptions): Promise<readonly BackfillRun[]>;
}
