/**
 * What happened to a job, as one lifecycle event says it. Each is written by exactly one kind
 * of change, in the SAME atomic change, and only when that change lands:
 * - `active`: a claim handed the job out (a fresh attempt, or the resume of a suspended run).
 *   A claim given back because its answer was lost (redis, NATS) leaves its `active` in the
 *   stream; the claim that next takes the job writes `active` again for the same attempt.
 * - `progress`: a fenced progress write landed (each landing: a write retried after its answer
 *   was lost that lands again writes another).
 * - `completed`: an ack.
 * - `retried`: a nack that sent the job back to work (`ready` or `delayed`).
 * - `suspended`: a suspend (a step sleep or event wait).
 * - `failed` / `dead`: a nack that gave up, or a claim that buried a lapsed final attempt; the
 *   type is the state the job settled in.
 * - `stalled`: a claim found the job `running` with its lease lapsed; followed in the same
 *   change by `active` (taken again) or by `dead`/`failed` (buried).
 * - `cancelled`: a cancel of a live job (any live state), or a nack with `cancel`.
 * Enqueue, extend, promote, requeue, delete and purge write none.
 */
export type LifecycleEventType =
  | 'active'
  | 'progress'
  | 'completed'
  | 'retried'
  | 'suspended'
  | 'failed'
  | 'dead'
  | 'stalled'
  | 'cancelled';

/** Every type, in the order above. */
export const LIFECYCLE_EVENT_TYPES: readonly LifecycleEventType[] = [
  'active',
  'progress',
  'completed',
  'retried',
  'suspended',
  'failed',
  'dead',
  'stalled',
  'cancelled',
];

/** The events a driver keeps when its `lifecycleRetention` option is not given. */
export const DEFAULT_LIFECYCLE_RETENTION = 10_000;
/** The smallest `lifecycleRetention` a driver takes. */
export const MIN_LIFECYCLE_RETENTION = 16;
/** The largest `lifecycleRetention` a driver takes. */
export const MAX_LIFECYCLE_RETENTION = 10_000_000;
/** `read`'s page size when none is given. */
export const DEFAULT_LIFECYCLE_PAGE = 100;
/** The largest `read` page (over it: JOB_PAGE_INVALID). */
export const MAX_LIFECYCLE_PAGE = 200;
/**
 * The most events one `read` examines past its position, matching or not: a read whose filters
 * match rarely answers fewer events (maybe none) and a `next` further on, never a longer walk.
 */
export const LIFECYCLE_READ_SCAN = 200;

/** One lifecycle event. */
export interface LifecycleEvent {
  /**
   * Where the event sits in the deployment's stream: an opaque string, made by the driver. Pass
   * it as `after` to read on from it. Positions of one driver's store only; never compare two.
   */
  readonly position: string;
  readonly type: LifecycleEventType;
  readonly jobId: string;
  readonly name: string;
  readonly queue: string;
  /** The job's tenant; absent for a job of none. */
  readonly tenantId?: string;
  /**
   * The job's `attempts` after the change (`stalled`: the attempt whose lease lapsed, i.e. the
   * count before the claim that noticed it; `active`: the attempt just begun).
   */
  readonly attempt: number;
  /** The `now` of the change that wrote it (the driver's clock). */
  readonly at: number;
}

/** What `read` takes. Every filter narrows; none given answers every event. */
export interface LifecycleReadRequest {
  /**
   * A `position` or `next` an earlier read answered: events after it. Absent (or undefined, so a
   * page's `next` can be passed as it is): from the oldest kept.
   */
  readonly after?: string | undefined;
  /** Default DEFAULT_LIFECYCLE_PAGE, 1..MAX_LIFECYCLE_PAGE. */
  readonly limit?: number;
  readonly queue?: string;
  readonly name?: string;
  readonly jobId?: string;
  /** Only this tenant's jobs' events (a tenant-scoped reader sees no other tenant's jobs). */
  readonly tenantId?: string;
}

/** A screened `read`: the limit filled in, ids checked, names non-empty. */
export interface ScreenedLifecycleRead {
  readonly after: string | undefined;
  readonly limit: number;
  readonly queue: string | undefined;
  readonly name: string | undefined;
  readonly jobId: string | undefined;
  readonly tenantId: string | undefined;
}

/** One page of the stream. */
export interface LifecyclePage {
  /** Up to `limit` matching events after `after`, in stream order. */
  readonly events: readonly LifecycleEvent[];
  /**
   * The position to read on from (pass it as `after`): the last event this read examined,
   * matching or not; `after` itself when it examined none; absent only when the stream holds no
   * event and no `after` was given.
   */
  readonly next?: string;
  /**
   * True when the read reached the end of what the stream holds now: reading on from `next`
   * answers nothing until a change writes another event. A tailing reader waits then.
   */
  readonly caughtUp: boolean;
}

/**
 * The deployment's lifecycle event stream (`driver.lifecycle`): one totally ordered, stored
 * stream of what happened to every job, readable from any process and resumable from any
 * position a read answered. Kit group: `lifecycle`.
 *
 * Order: stream order is a total order every reader sees alike. Events of different changes
 * come in the order the changes took effect; the events of one job appear in the order of its
 * changes, with none missing (no gaps per job), `stalled` before the `active`, `dead` or
 * `failed` of the same claim; events of ONE change about different jobs (a claim of many, an
 * `ackMany`) come in an order the driver picks. An event is readable by every process of the
 * deployment once the change that wrote it has answered. Retention: the stream keeps at
 * least the newest `lifecycleRetention` events (a driver option, default
 * DEFAULT_LIFECYCLE_RETENTION) and at most twice as many once trimmed; older ones go, oldest
 * first (memory, redis and NATS as they write; pg when `trim` runs). A reader more than the
 * retention behind misses what went: read on from the oldest kept by passing no `after`.
 */
export interface LifecycleStore {
  /**
   * Walks the stream from just after `after` (from the oldest kept event when absent), in stream
   * order, examining one event at a time, and stops once `limit` events matched every given
   * filter or LIFECYCLE_READ_SCAN events were examined, or at the end. Answers the matching
   * events, `next` (the last event examined) and `caughtUp` (no event follows `next` now).
   * An `after` this store never answered (malformed, or another driver's) is JOB_PAGE_INVALID;
   * an `after` whose event has since been trimmed reads on from the oldest kept event after it.
   */
  read(request?: LifecycleReadRequest): Promise<LifecyclePage>;
  /**
   * The position of the newest event readable now (`undefined` when none): read from it to see
   * only what happens from now on.
   */
  end(): Promise<string | undefined>;
  /**
   * Removes at most `limit` (1..MAX_PURGE_LIMIT, default DEFAULT_PURGE_LIMIT) events beyond the
   * newest `lifecycleRetention`, oldest first, and answers how many went. A driver that trims as
   * it writes answers 0. The retention sweep (`createRetention`) calls it.
   */
  trim(options?: { readonly limit?: number }): Promise<number>;
}

/** What a backend implements: inputs screened (`trim`'s limit filled in). */
export interface LifecycleBackend {
  /**
   * As `LifecycleStore.read`. The backend decodes `after` and throws
   * `lifecyclePositionInvalid(after)` for one it never made.
   */
  read(request: ScreenedLifecycleRead): Promise<LifecyclePage>;
  end(): Promise<string | undefined>;
  trim(limit: number): Promise<number>;
}
