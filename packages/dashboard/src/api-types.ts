/**
 * What the dashboard's JSON API answers: shared by the server and the page (type-only for the
 * page, so it stays free of Node and of core).
 */

export type Json =
  | null
  | boolean
  | number
  | string
  | readonly Json[]
  | { readonly [key: string]: Json };

export type State =
  | 'ready'
  | 'delayed'
  | 'running'
  | 'suspended'
  | 'completed'
  | 'failed'
  | 'dead'
  | 'cancelled';

/** Embedded in the page by the server. */
export interface PageConfig {
  readonly basePath: string;
  readonly csrf: string;
  readonly readOnly: boolean;
  /** The tenant every read and action is scoped to, or null when unscoped. */
  readonly tenant: string | null;
  /** No `auth`: only loopback requests are accepted, and the page says so. */
  readonly loopbackOnly: boolean;
  readonly title: string;
  readonly refreshMs: number;
  readonly driver: string;
  readonly deadLetterScan: number;
  readonly idSearchScan: number;
  readonly tenantScan: number;
  /** The dashboard was given an outbox: the outbox page is in the navigation. */
  readonly outbox: boolean;
}

export interface ProblemBody {
  readonly error: {
    readonly code: string;
    readonly message: string;
    readonly fix?: string;
    /** `ID_AMBIGUOUS`: the jobs a part of an id could mean. */
    readonly candidates?: readonly JobSummary[];
  };
}

export interface QueueOverview {
  readonly queue: string;
  readonly counts: Readonly<Record<State, number>>;
  readonly oldestReadyAgeMs: number | null;
  /** Tenant scope: states whose count reached the scan bound (the count is a lower bound). */
  readonly capped: readonly State[];
  /** Per minute, oldest first, aligned with `throughput.minuteStarts`. */
  readonly completed: readonly number[];
  readonly failed: readonly number[];
  /** When the queue was paused (workers claim nothing from it); absent while it is not. */
  readonly pausedAt?: number;
}

export interface OverviewResponse {
  readonly now: number;
  readonly queues: readonly QueueOverview[];
  readonly throughput: {
    /** `sampled`: differences of `stats()` read in this process; `scanned`: recent rows read. */
    readonly source: 'sampled' | 'scanned';
    /** The first sample this process took (sampled), or null before it. */
    readonly since: number | null;
    readonly sampleMs: number;
    readonly minuteStarts: readonly number[];
    readonly completed: readonly number[];
    readonly failed: readonly number[];
  };
  /**
   * Job names whose oldest ready job waited longer than `afterMs` (the `staleReadyAfterMs`
   * option): a name no worker runs, or workers falling behind. Only queues whose oldest ready
   * job is that old are read, STALE_OVERVIEW_PAGES list pages each; `partial` names the queues
   * holding more ready jobs than were read.
   */
  readonly stale: {
    readonly afterMs: number;
    readonly names: readonly StaleName[];
    readonly partial: readonly string[];
  };
  /**
   * Concurrency keys in use: running jobs that carry a `concurrencyKey`, counted per job name
   * and key, busiest first (then by name and key), at most CONCURRENCY_TOP (20) of them; from
   * the newest CONCURRENCY_SCAN (5,000) running jobs, of the tenant only when scoped.
   */
  readonly concurrency: ConcurrencyOverview;
}

export interface ConcurrencyOverview {
  readonly keys: readonly ConcurrencyKeyRow[];
  /** Keys with running jobs in all: `keys` and the ones past the 20 answered. */
  readonly keyCount: number;
  /** Running jobs read. */
  readonly scanned: number;
  /** More jobs were running than were read: the counts cover the newest ones. */
  readonly truncated: boolean;
}

export interface ConcurrencyKeyRow {
  /** The job name (a key's slots are the name's). */
  readonly name: string;
  /** The job's `concurrencyKey`. */
  readonly key: string;
  /** Jobs of the name and key running now. */
  readonly running: number;
}

export interface StaleName {
  readonly queue: string;
  readonly name: string;
  /** `now - runAt` of its oldest ready job among the rows read. */
  readonly oldestReadyAgeMs: number;
  /** How many of its ready jobs past `afterMs` were among the rows read. */
  readonly seen: number;
}

export interface JobSummary {
  readonly id: string;
  readonly name: string;
  readonly queue: string;
  readonly state: State;
  readonly priority: number;
  readonly attempts: number;
  readonly maxAttempts: number;
  readonly runAt: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly finishedAt?: number;
  readonly tenantId?: string;
  readonly errorCode?: string;
  /** The last error's message, cut short for the table. */
  readonly errorMessage?: string;
}

export interface JobsResponse {
  readonly jobs: readonly JobSummary[];
  readonly next?: string;
  readonly prev?: string;
}

/** `GET /api/find?id=`: the one job a whole id, or a unique start or end of one, names. */
export interface FindResponse {
  readonly job: JobSummary;
}

export interface JobView extends JobSummary {
  readonly runId: string;
  readonly payload: Json;
  readonly claim: number;
  readonly claimedBy?: string;
  readonly visibleAt?: number;
  readonly lastError?: {
    readonly code?: string;
    readonly message: string;
    readonly stack?: string;
  };
  readonly result?: Json;
  readonly progress?: Json;
  readonly idempotencyKey?: string;
  readonly concurrencyKey?: string;
  readonly traceparent?: string;
  readonly enqueuedBy?: string;
  /** The job this one is a child of (a flow, or `step.invoke`). */
  readonly parentId?: string;
  readonly waitFor?: string;
}

export interface StepView {
  readonly name: string;
  readonly status: 'completed' | 'failed' | 'sleeping' | 'waiting';
  readonly output?: Json;
  readonly error?: { readonly code?: string; readonly message: string; readonly stack?: string };
  readonly attempts: number;
  readonly wakeAt?: number;
  readonly eventName?: string;
  readonly eventId?: string;
  readonly startedAt: number;
  readonly updatedAt: number;
}

/** Which actions the job's state allows (none in read-only mode). */
export interface JobActions {
  readonly retry: boolean;
  readonly retryFromStep: boolean;
  readonly cancel: boolean;
  readonly promote: boolean;
  /** Any state but running (a worker holds it: cancel first). */
  readonly delete: boolean;
}

/** One ended attempt (core's AttemptRecord). */
export interface AttemptView {
  readonly seq: number;
  readonly attempt: number;
  readonly claim: number;
  readonly workerId: string;
  readonly claimedAt: number;
  readonly endedAt: number;
  readonly outcome: 'completed' | 'retried' | 'failed' | 'suspended' | 'cancelled' | 'lapsed';
  readonly error?: { readonly code?: string; readonly message: string; readonly stack?: string };
}

/** The job's attempt history: oldest first, the first and the latest kept. */
export interface AttemptsView {
  readonly records: readonly AttemptView[];
  /** Records the cap dropped between the first and the ones kept. */
  readonly dropped: number;
}

/** A job's log lines (`ctx.log`), oldest first: `GET /jobs/:id/logs`. */
export interface JobLogsResponse {
  readonly lines: readonly {
    readonly seq: number;
    readonly attempt: number;
    readonly at: number;
    readonly level: 'debug' | 'info' | 'warn' | 'error';
    readonly message: string;
  }[];
  /** Lines past the per-job cap, not kept. */
  readonly dropped: number;
}

export interface JobResponse {
  readonly job: JobView;
  readonly attempts: AttemptsView;
  readonly steps: readonly StepView[];
  readonly actions: JobActions;
}

export interface DeadLetterGroup {
  /** Opaque: names the group in a group action. */
  readonly key: string;
  readonly queue: string;
  readonly code: string | null;
  /** The message with ids, numbers and times replaced by placeholders. */
  readonly message: string;
  readonly count: number;
  readonly firstSeen: number;
  readonly lastSeen: number;
  readonly sample: {
    readonly id: string;
    readonly name: string;
    readonly payload: Json;
    readonly message: string;
    readonly stack?: string;
  };
  readonly ids: readonly string[];
}

export interface DeadLettersResponse {
  readonly queue: string | null;
  readonly groups: readonly DeadLetterGroup[];
  /** Dead jobs read: the most recent ones, at most `limit`. */
  readonly scanned: number;
  readonly limit: number;
  /** More dead jobs exist beyond the ones read. */
  readonly capped: boolean;
}

/** A multi-select action on the jobs table. */
export type BulkAction = 'retry' | 'cancel' | 'delete';

/** One ticked job's outcome: `state` is its state after (for delete: the state it had). */
export interface BulkActionResult {
  readonly id: string;
  readonly outcome: 'requeued' | 'cancelled' | 'deleted' | 'refused';
  readonly state?: State;
  /** A refusal's code and detail, and the state it named (`running`). */
  readonly code?: string;
  readonly message?: string;
  readonly reason?: string;
}

export interface BulkActionResponse {
  readonly action: BulkAction;
  readonly results: readonly BulkActionResult[];
}

export type GroupOutcome = 'requeued' | 'purged' | 'skipped' | 'refused';

export interface GroupActionResult {
  readonly id: string;
  readonly outcome: GroupOutcome;
  readonly code?: string;
  readonly message?: string;
}

export interface GroupActionResponse {
  readonly results: readonly GroupActionResult[];
}

export interface ScheduleView {
  readonly name: string;
  readonly cron: string;
  readonly timezone: string;
  readonly job: string;
  readonly queue: string | null;
  readonly next: readonly number[];
  /** The latest slot at or before now, and the job it made (state null: none stored). */
  readonly last: {
    readonly slot: number;
    readonly jobId: string;
    readonly state: State | null;
  } | null;
  readonly error?: string;
}

/**
 * A schedule stored by the driver (`client.schedules`): core's `ScheduleRecord` as it is stored
 * (`timezone` absent: UTC; `queue` absent: the default queue), with its next slots.
 */
export interface StoredScheduleView {
  readonly name: string;
  readonly tenantId?: string;
  readonly cron: string;
  readonly timezone?: string;
  readonly job: string;
  readonly queue?: string;
  readonly payload: Json;
  readonly priority?: number;
  readonly maxAttempts?: number;
  /** A paused schedule enqueues nothing; a resume starts at the next slot after it. */
  readonly paused: boolean;
  /** The next slot to enqueue (epoch ms); before now when the scheduler has not reached it. */
  readonly nextAt: number;
  /** `nextAt` and the slots after it, NEXT_SLOTS in all; none while paused. */
  readonly next: readonly number[];
  /** One more on every stored change. */
  readonly revision: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  /**
   * The slot the schedulers last enqueued and its job (`state` null once the job was purged),
   * or null before its first slot (`client.schedules.lastSlot`).
   */
  readonly last: ScheduleView['last'];
  /** Its cron expression could not be read here (its slots are then not shown). */
  readonly error?: string;
}

/** One page of the stored schedules, by name, then tenant. */
export interface StoredSchedulesPage {
  readonly schedules: readonly StoredScheduleView[];
  /** Pass back as `after` for the page after this one; absent on the last page. */
  readonly next?: string;
  readonly limit: number;
}

export interface SchedulesResponse {
  readonly configured: boolean;
  readonly leaseName: string;
  readonly leader: { readonly holder: string; readonly expiresAt: number } | null;
  readonly schedules: readonly ScheduleView[];
  /** The schedules the driver stores (tenant-scoped like every read). */
  readonly stored: StoredSchedulesPage;
}

/** What pause, resume and remove of a stored schedule answer. */
export interface StoredScheduleResponse {
  /** The record as it now stands; for remove, as read just before it was removed. */
  readonly schedule: StoredScheduleView;
}

export interface EventView {
  readonly id: string;
  readonly name: string;
  readonly payload: Json;
  readonly publishedAt: number;
  readonly expiresAt: number;
}

export interface EventsResponse {
  readonly name: string | null;
  readonly names: readonly {
    readonly name: string;
    readonly count: number;
    readonly last: number;
  }[];
  /** The most recent events, newest first, at most `limit`. */
  readonly events: readonly EventView[];
  readonly total: number;
  readonly limit: number;
}

/** A row the queue refused, as the outbox page shows it. */
export interface DeadOutboxView {
  readonly id: string;
  readonly kind: 'job' | 'event';
  /** The job's (or the event's) name. */
  readonly name: string;
  readonly refusal: { readonly code?: string; readonly message: string };
  readonly stagedAt: number;
  readonly deadAt: number;
}

export interface OutboxResponse {
  /** False when the dashboard was given no `outbox`. */
  readonly configured: boolean;
  /** True for a tenant-scoped dashboard: the outbox holds every tenant's rows, so none shows. */
  readonly tenantScoped: boolean;
  readonly stats: {
    readonly staged: number;
    readonly dead: number;
    readonly oldestStagedAt?: number;
  } | null;
  /** The oldest refused rows, at most `limit`. */
  readonly dead: readonly DeadOutboxView[];
  readonly limit: number;
}

export interface OutboxActionResponse {
  /** The ids that were dead rows and were acted on. */
  readonly done: readonly string[];
}
