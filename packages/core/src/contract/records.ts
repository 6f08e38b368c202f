import type { JobState } from './states.js';

/** A JSON value: what payloads, results, step outputs and event payloads are. */
export type Json =
  | null
  | boolean
  | number
  | string
  | readonly Json[]
  | { readonly [key: string]: Json };

/** What a failed attempt left behind. */
export interface JobError {
  /** A BerthError code, or an app's own. */
  readonly code?: string;
  /** Cut to MAX_ERROR_MESSAGE_LENGTH. */
  readonly message: string;
  /** Cut to MAX_ERROR_STACK_LENGTH. */
  readonly stack?: string;
}

/** One job as every driver reports it. Instants are epoch ms from the driver's clock. */
export interface JobRecord {
  readonly id: string;
  /** Steps hang off the run; a requeue keeps it, so kept steps stay memoized. */
  readonly runId: string;
  readonly name: string;
  readonly queue: string;
  readonly payload: Json;
  /** The EFFECTIVE state: a due `delayed`/`suspended` row reads `ready`. */
  readonly state: JobState;
  /** Higher is claimed first. */
  readonly priority: number;
  readonly attempts: number;
  readonly maxAttempts: number;
  readonly runAt: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Set when the row reached a TERMINAL state. */
  readonly finishedAt?: number;
  /** The worker that last claimed it, while `running`. */
  readonly claimedBy?: string;
  /** The fencing token: grows by one on every claim, starts at 0. */
  readonly claim: number;
  /** Lease expiry while `running`. */
  readonly visibleAt?: number;
  readonly lastError?: JobError;
  readonly result?: Json;
  readonly progress?: Json;
  readonly idempotencyKey?: string;
  readonly concurrencyKey?: string;
  readonly tenantId?: string;
  readonly traceparent?: string;
  readonly enqueuedBy?: string;
  /**
   * The job this one is a child of (`enqueue`'s `parentId`), kept as given: a flow's parent
   * waits for its children, and a child's worker wakes that parent when the child settles.
   */
  readonly parentId?: string;
  /** The event a `suspended` row waits for (`suspend({ waitFor })`). */
  readonly waitFor?: string;
}

/** What `enqueue` takes. Core screens it (`screenEnqueue`) before any driver sees it. */
export interface EnqueueRequest {
  /**
   * A uuid the caller allocated (an outbox). An id that exists answers that job, deduped; one a
   * row of another tenant holds is JOB_INVALID (field `id`, "the id is taken").
   */
  readonly id?: string;
  readonly name: string;
  readonly queue?: string;
  readonly payload?: Json;
  /** Omitted: now. In the future: the job is `delayed`. */
  readonly runAt?: number;
  readonly priority?: number;
  readonly maxAttempts?: number;
  /** Namespace `(name, tenantId, idempotencyKey)` among LIVE rows. */
  readonly idempotencyKey?: string;
  /** What a live holder of the key means: answer it (`dedupe`, default) or throw JOB_DUPLICATE. */
  readonly onConflict?: 'dedupe' | 'error';
  readonly concurrencyKey?: string;
  readonly tenantId?: string;
  readonly traceparent?: string;
  readonly enqueuedBy?: string;
  /**
   * A uuid naming the job this one is a child of (a flow). Stored and reported as given, never
   * looked up: the parent need not exist yet (a flow enqueues both in one `enqueueMany`). Not
   * the job's own `id` (JOB_INVALID, field `parentId`).
   */
  readonly parentId?: string;
  /** Only in a `MarkedEnqueueRequest`. */
  readonly advanceMark?: undefined;
}

/** An enqueue that raises a mark in its own atomic change: see `advanceMark`. */
export interface MarkedEnqueueRequest extends Omit<EnqueueRequest, 'advanceMark'> {
  /**
   * Exactly once against a named mark of `driver.marks` (the scheduler's per-slot handshake).
   * In ONE atomic change: while the mark is unset or below `value`, the enqueue runs as it would
   * without this, and when it answers a job (made, or the id's or key's holder, deduped) the
   * mark rises to `value`; a refusal (JOB_DUPLICATE, an id another tenant holds) moves nothing.
   * Once the mark holds `value` or more, nothing is inserted or looked up and the answer is
   * {@link MarkPassed}, even after the job was purged: a retry of an enqueue whose answer was
   * lost, or a second caller, never makes the job again.
   *
   * Needs `id`, and every enqueue advancing one mark to one value names the same id (derive it
   * from the two, as the scheduler does): the id is how a retry and a racing caller meet the one
   * job. `enqueueMany` refuses it. JOB_INVALID (field `advanceMark`) otherwise; the name and
   * value are screened as `marks.advance` screens them. Group `marks`.
   */
  readonly advanceMark: MarkAdvance;
}

/** A mark an enqueue raises in its own atomic change (`MarkedEnqueueRequest.advanceMark`). */
export interface MarkAdvance {
  readonly name: string;
  /** A safe integer >= 0. */
  readonly value: number;
}

/**
 * `enqueue`'s answer when its `advanceMark` mark already held the value or more: no job was
 * inserted or looked up, nothing changed. Racing enqueues to one mark value make one job between
 * them; each other answers this, or (one that met the job before the mark rose) that job, deduped.
 */
export interface MarkPassed {
  readonly markPassed: true;
}

/**
 * An `EnqueueRequest` (or `MarkedEnqueueRequest`) after screening: every default
 * filled, every value checked.
 */
export interface ScreenedEnqueue {
  readonly id: string | undefined;
  readonly name: string;
  readonly queue: string;
  readonly payload: Json;
  /** `undefined` means "now" on the driver's clock, read inside the change. */
  readonly runAt: number | undefined;
  readonly priority: number;
  readonly maxAttempts: number;
  readonly idempotencyKey: string | undefined;
  readonly onConflict: 'dedupe' | 'error';
  readonly concurrencyKey: string | undefined;
  readonly tenantId: string | undefined;
  readonly traceparent: string | undefined;
  readonly enqueuedBy: string | undefined;
  readonly parentId: string | undefined;
  /** With `id` set; always `undefined` in `enqueueMany`, which refuses it. */
  readonly advanceMark: MarkAdvance | undefined;
}

export interface EnqueueResult {
  readonly id: string;
  readonly runId: string;
  /** True when no row was made: the answer is an existing job (key holder or caller id). */
  readonly deduped: boolean;
}

export interface ClaimRequest {
  /** At least one queue; `[]` is JOB_INVALID. */
  readonly queues: readonly string[];
  /** Most rows handed out (and, separately, most rows buried) by this call. Default 1. */
  readonly limit?: number;
  readonly workerId: string;
  /** Lease length: `visibleAt = now + visibilityTimeoutMs`. */
  readonly visibilityTimeoutMs: number;
  /**
   * Only rows of these job names are claimed, and only these are buried on a final-attempt
   * lapse: a worker claims only what it can run, so a rolling deploy never dead-letters a job
   * type the old workers do not know. Omitted: every name. `[]` is JOB_INVALID.
   */
  readonly names?: readonly string[];
  /** Job names whose lease burial settles `failed` instead of `dead`. */
  readonly dropExhausted?: readonly string[];
  /** Told, once per call and after the change landed, the rows this claim buried. */
  readonly onExhausted?: (buried: readonly JobRecord[]) => void;
}

/** A claimed row: `running`, with the fence a settle must present. */
export interface ClaimedJob extends JobRecord {
  readonly state: 'running';
  readonly claimedBy: string;
  readonly visibleAt: number;
  /** True when this claim resumed a suspended run (no attempt was counted). */
  readonly resumed: boolean;
}

/** What every fenced write presents: it lands only while this exact claim still holds. */
export interface Fence {
  readonly jobId: string;
  readonly workerId: string;
  readonly claim: number;
}

export interface AckOptions {
  readonly result?: Json;
}

export interface NackOptions {
  readonly error: JobError;
  /** When attempts remain: run again at this instant (`delayed`); omitted or past: `ready` now. */
  readonly retryAt?: number;
  /** Give up now, whatever attempts remain. */
  readonly final?: boolean;
  /** False settles a give-up `failed` instead of `dead`. Default true. */
  readonly deadLetter?: boolean;
  /**
   * Settle `cancelled` now, whatever attempts remain and whatever `retryAt`, `final` and
   * `deadLetter` say: a job the worker decided must not run (its key was busy, a newer job of
   * its key superseded it). `error` is kept as `lastError` and the attempt's `cancelled` record.
   */
  readonly cancel?: boolean;
}

export interface SuspendOptions {
  /** The row is due again at this instant. */
  readonly until: number;
  /** An event name: publishing it makes the row due at once, in the publish's own change. */
  readonly waitFor?: string;
  /**
   * With `waitFor`: when an unexpired event of that name published at or after this instant is
   * already stored, the row is due at once, in the suspend's own change. Closes the gap between
   * a waiter's last look at the events and its suspend landing, where a publish wakes nobody.
   */
  readonly eventsSince?: number;
  /**
   * With `eventsSince`: only an event whose payload matches (as `events.find`'s `match`) counts,
   * so an event the waiter already looked at and passed over does not wake it again.
   */
  readonly eventsMatch?: Readonly<Record<string, Json>>;
  /** With `eventsSince`: events with these ids never count (events the run already consumed). */
  readonly eventsExclude?: readonly string[];
}

export interface AckItem extends AckOptions {
  readonly fence: Fence;
}

export interface NackItem extends NackOptions {
  readonly fence: Fence;
}

/** By-id operator calls: a named tenant never sees another tenant's row. */
export interface ByIdOptions {
  readonly tenantId?: string;
}

export interface RequeueOptions extends ByIdOptions {
  /** Drop this step and every step written after it, so they run again. */
  readonly fromStep?: string;
}

export interface ListRequest {
  /** Effective state. */
  readonly state?: JobState;
  readonly queue?: string;
  readonly name?: string;
  readonly tenantId?: string;
  /** 1..MAX_JOB_PAGE, default DEFAULT_JOB_PAGE. */
  readonly limit?: number;
  /** The `next` of a previous page: rows after it. */
  readonly after?: string;
  /** The `prev` of a previous page: rows before it. */
  readonly before?: string;
}

/** Newest first: `createdAt` desc, then insertion order desc. */
export interface ListPage {
  readonly jobs: readonly JobRecord[];
  /** Present when rows follow this page. */
  readonly next?: string;
  /** Present when rows precede this page. */
  readonly prev?: string;
}

export type StateCounts = Readonly<Record<JobState, number>>;

export interface QueueStats {
  readonly queue: string;
  /** Count per effective state; every state present, zeros included. */
  readonly counts: StateCounts;
  /** `now - runAt` of the oldest effectively-ready row, or null when none is ready. */
  readonly oldestReadyAgeMs: number | null;
}

export interface PurgeRequest {
  /** TERMINAL states only; anything else is JOB_INVALID. */
  readonly states: readonly JobState[];
  /** Rows with `finishedAt < olderThan` go. */
  readonly olderThan: number;
  /**
   * Only rows among these ids (1..MAX_JOB_PAGE uuids), the other filters still applying: an
   * operator removing the dead letters they chose. Unknown ids are skipped, never refused.
   */
  readonly ids?: readonly string[];
  /**
   * The most rows this call removes: an integer 1..MAX_PURGE_LIMIT, default DEFAULT_PURGE_LIMIT.
   * Rows go oldest `finishedAt` first (then insertion order); a caller that wants every match
   * calls again until the answer is below the limit.
   */
  readonly limit?: number;
}

/** A screened `purge`: states deduped, `limit` filled in. */
export interface ScreenedPurge {
  readonly states: readonly JobState[];
  readonly olderThan: number;
  readonly ids?: readonly string[];
  readonly limit: number;
}
