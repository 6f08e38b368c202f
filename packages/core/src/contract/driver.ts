import type { Clock } from '../clock.js';
import type { AttemptBackend, AttemptStore } from './attempts.js';
import type { BackfillBackend, BackfillLedger } from './backfills.js';
import type { DeleteBackend, DeleteJobs } from './delete.js';
import type { EnqueueBackend } from './enqueue.js';
import type { EventBackend, EventStore } from './events.js';
import type { LeaseStore } from './leases.js';
import type { LifecycleBackend, LifecycleStore } from './lifecycle.js';
import type { LogBackend, LogStore } from './logs.js';
import type { MarkStore } from './marks.js';
import type { PauseBackend, PauseStore } from './pause.js';
import type {
  AckItem,
  AckOptions,
  ByIdOptions,
  ClaimedJob,
  ClaimRequest,
  EnqueueRequest,
  EnqueueResult,
  Fence,
  JobRecord,
  Json,
  ListPage,
  ListRequest,
  MarkedEnqueueRequest,
  MarkPassed,
  NackItem,
  NackOptions,
  PurgeRequest,
  QueueStats,
  RequeueOptions,
  ScreenedPurge,
  SuspendOptions,
} from './records.js';
import type { ScheduleBackend, ScheduleStore } from './schedules.js';
import type { JobState } from './states.js';
import type { StepStore } from './steps.js';

/** Stops a wake subscription. */
export type Unsubscribe = () => Promise<void>;

/**
 * The queue as apps and the runtime see it. Built by {@link createDriver} from a
 * `DriverBackend`: core screens every input here, so every driver refuses alike, and
 * wraps any raw backend error as DRIVER_UNAVAILABLE.
 */
export interface Driver extends DeleteJobs {
  /** The driver's name, for messages (`memory`, `pg`, `redis`). */
  readonly name: string;
  /** The clock every instant of this driver comes from. */
  readonly clock: Clock;
  /** With `advanceMark`: the job, or {@link MarkPassed} when the mark was already there. */
  enqueue(request: MarkedEnqueueRequest): Promise<EnqueueResult | MarkPassed>;
  enqueue(request: EnqueueRequest): Promise<EnqueueResult>;
  enqueueMany(requests: readonly EnqueueRequest[]): Promise<readonly EnqueueResult[]>;
  claim(request: ClaimRequest): Promise<readonly ClaimedJob[]>;
  ack(fence: Fence, options?: AckOptions): Promise<boolean>;
  nack(fence: Fence, options: NackOptions): Promise<boolean>;
  suspend(fence: Fence, options: SuspendOptions): Promise<boolean>;
  extend(fence: Fence, visibilityTimeoutMs: number): Promise<boolean>;
  /**
   * Stores `value` (JSON, at most MAX_PROGRESS_BYTES) as the job's `progress` while the fence
   * holds; answers whether it landed. A later value replaces it; nothing else clears it (see
   * `DriverBackend.progress`). The worker calls it through `ctx.progress`. Group `progress`.
   */
  progress(fence: Fence, value: Json): Promise<boolean>;
  ackMany(items: readonly AckItem[]): Promise<readonly boolean[]>;
  nackMany(items: readonly NackItem[]): Promise<readonly boolean[]>;
  /**
   * Renews many leases in ONE driver call, each exactly as `extend`; answers per item, in input
   * order (see `DriverBackend.extendMany`). Empty input answers `[]` with no round trip.
   * The worker's one lease timer renews every due job through it. Group `settle`.
   */
  extendMany(items: readonly Fence[], visibilityTimeoutMs: number): Promise<readonly boolean[]>;
  get(id: string, options?: ByIdOptions): Promise<JobRecord | undefined>;
  cancel(id: string, options?: ByIdOptions): Promise<JobRecord>;
  promote(id: string, options?: ByIdOptions): Promise<JobRecord>;
  requeue(id: string, options?: RequeueOptions): Promise<JobRecord>;
  list(request?: ListRequest): Promise<ListPage>;
  stats(): Promise<readonly QueueStats[]>;
  /**
   * Removes at most `request.limit` (default DEFAULT_PURGE_LIMIT) TERMINAL rows and answers how
   * many went: loop until the answer is below the limit to remove every match.
   */
  purge(request: PurgeRequest): Promise<number>;
  readonly steps: StepStore;
  /** Each job's attempt history, written with the change that ends an attempt. Group `attempts`. */
  readonly attempts: AttemptStore;
  readonly events: EventStore;
  readonly leases: LeaseStore;
  /** Named monotonic marks (the scheduler's per-schedule high-water mark). Group `marks`. */
  readonly marks: MarkStore;
  /** Pause and resume queues fleet-wide (see contract/pause.ts). Group `pause`. */
  readonly pauses: PauseStore;
  /** The backfill ledger: runs, their cursors and statuses (see contract/backfills.ts). Group `backfills`. */
  readonly backfills: BackfillLedger;
  /** Schedules stored by the driver (see contract/schedules.ts). Group `schedules`. */
  readonly schedules: ScheduleStore;
  /** Job logs (`ctx.log`): fenced appends, paged reads, capped per job. Group `logs`. */
  readonly logs: LogStore;
  /**
   * The lifecycle event stream: what happened to every job, in one stored, resumable order
   * (see contract/lifecycle.ts). Group `lifecycle`.
   */
  readonly lifecycle: LifecycleStore;
  /**
   * Answers once the backend is reachable and holds everything this driver needs.
   * DRIVER_NOT_MIGRATED when its schema is missing or older than the driver's migrations (the
   * fix names the migrate call); DRIVER_UNAVAILABLE when it cannot be reached. `worker.start()`
   * and `scheduler.start()` call it first. Group `check`.
   */
  check(): Promise<void>;
  /**
   * Present when the backend can push wake-ups; otherwise the worker polls. `onCancelled`, when
   * given, hears of each cancel of a running job of `queues` (see `DriverBackend.subscribe`):
   * a worker ends that job's attempt at once instead of at its next lease renewal.
   */
  readonly subscribe?: (
    queues: readonly string[],
    onWork: (queue: string) => void,
    onCancelled?: (jobId: string) => void,
  ) => Promise<Unsubscribe>;
  /**
   * Present when the backend can tell any process that jobs settled (what it hears: the doc of
   * `DriverBackend.watchSettles`, `@berth/core/driver`): a result wait (`result()`,
   * `enqueueAndWait`) then looks at its job as it settles instead of at its next poll.
   */
  readonly watchSettles?: (onSettled: (jobIds: readonly string[]) => void) => Promise<Unsubscribe>;
  /**
   * Releases what the driver opened. Idempotent (a second close resolves). From the first call
   * on, every other call — steps, events, leases and subscribe too, and a call in flight that
   * the close made fail — rejects DRIVER_CLOSED, with one text on every driver. Group `close`.
   */
  close(): Promise<void>;
}

/** Where a row sits in list order: `createdAt` desc, then insertion order (`seq`) desc. */
export interface ListPosition {
  readonly createdAt: number;
  readonly seq: number;
}

/** A listed row and its position, from which core makes the page's opaque cursors. */
export interface PositionedJob {
  readonly job: JobRecord;
  readonly position: ListPosition;
}

/** A screened `list`: exactly one of `after`/`before` or neither. */
export interface ScreenedList {
  readonly state: JobState | undefined;
  readonly queue: string | undefined;
  readonly name: string | undefined;
  readonly tenantId: string | undefined;
  readonly limit: number;
  readonly after: ListPosition | undefined;
  readonly before: ListPosition | undefined;
}

/** A screened `claim`: limit filled, `dropExhausted` a list, `names` deduped. */
export interface ScreenedClaim {
  readonly queues: readonly string[];
  readonly limit: number;
  readonly workerId: string;
  readonly visibilityTimeoutMs: number;
  /** Valid, deduped, non-empty; `undefined` means every name. */
  readonly names: readonly string[] | undefined;
  readonly dropExhausted: readonly string[];
}

/** What one claim did: rows handed out, and final-attempt lapsed rows it buried. */
export interface ClaimOutcome {
  readonly claimed: readonly ClaimedJob[];
  readonly buried: readonly JobRecord[];
}

/**
 * What a driver author implements. Every input has been screened by core (ids are uuids, numbers
 * are finite integers in range, names are non-empty, payloads are JSON within the size limit),
 * so a backend trusts its arguments. Every instant comes from `clock.now()`, read once per
 * change and passed into the statement or script: never the server's own clock.
 *
 * Each member names the conformance kit group that checks it.
 */
export interface DriverBackend extends DeleteBackend, EnqueueBackend {
  readonly name: string;
  readonly clock: Clock;
  /** Payload limit in bytes of JSON, applied by core's screen. */
  readonly maxPayloadBytes: number;
  /**
   * The key list cursors are signed with: the app's `cursorSecret` option, else
   * `defaultCursorSecret(name, namespace)` so every process of one deployment agrees. Group `list`.
   */
  readonly cursorSecret?: string;

  /**
   * In ONE atomic change, over rows of `queues` (and, when `names` is given, only rows of those
   * job names: others are neither claimed nor buried), in order priority desc, runAt asc,
   * seq asc:
   * - claimable = effectively `ready` with `runAt <= now`, or `running` with `visibleAt <= now`
   *   and `attempts < maxAttempts`: up to `limit` become `running`, `claim + 1`, `claimedBy`,
   *   `visibleAt = now + vt`, `attempts + 1` (not for a resumed `suspended` row: `resumed`
   *   true), `waitFor` cleared;
   * - exhausted = `running`, `visibleAt <= now`, `attempts >= maxAttempts`: up to `limit` are
   *   settled `dead` (`failed` when the name is in `dropExhausted`), `finishedAt = now`,
   *   `lastError.code = LEASE_LAPSED`, and answered in `buried`, never handed out.
   * No row is ever held by two workers. Group `claim`.
   */
  claim(request: ScreenedClaim): Promise<ClaimOutcome>;
  /**
   * Fenced settles: each lands only when the row is `running` with this `claimedBy` and `claim`
   * (a lapsed lease not yet re-claimed still lands); answers whether it landed. Group `settle`.
   * - ack → `completed`, `result`, `finishedAt`.
   * - nack → `attempts < maxAttempts` and not `final`: `delayed` at `retryAt` (or `ready` when
   *   it is absent or not in the future); else `dead`, or `failed` with `deadLetter: false`;
   *   with `cancel`, `cancelled` whatever else it says (`finishedAt = now`, the attempt's
   *   record `cancelled`). `lastError` is stored either way.
   * - suspend → `suspended`, `runAt = until`, `waitFor`; with `eventsSince`, `runAt = now` instead
   *   when an unexpired `waitFor` event with `publishedAt >= eventsSince` is already stored
   *   that matches `eventsMatch` (when given, as `events.find`'s match) and whose id is not in
   *   `eventsExclude`.
   * - extend → `visibleAt = now + vt`.
   * A settle clears `claimedBy` and `visibleAt` (extend keeps them).
   */
  ack(fence: Fence, options: AckOptions): Promise<boolean>;
  nack(fence: Fence, options: NackOptions): Promise<boolean>;
  suspend(fence: Fence, options: SuspendOptions): Promise<boolean>;
  extend(fence: Fence, visibilityTimeoutMs: number): Promise<boolean>;
  /**
   * A fenced write of the job's progress, in ONE atomic change: when the row is `running` with
   * this `claimedBy` and `claim` (a lapsed lease not yet re-claimed still lands, as for the
   * settles), `progress = value` and `updatedAt = now`; nothing else moves (state, `visibleAt`,
   * `claimedBy`, `attempts` stay: it neither renews nor ends the lease). Answers whether it
   * landed; a stale fence (re-claimed, settled, cancelled, never claimed, unknown id) answers
   * false and changes nothing. `value` is screened JSON, any shape (`null` included), at most
   * MAX_PROGRESS_BYTES (or `maxPayloadBytes` when lower): store it whole and answer it as given
   * in `get` and `list`. The stored value is KEPT by every other change — claim, ack, nack (a
   * retry), suspend, cancel and requeue — so a record shows the last progress any attempt of the
   * job reported until the next write replaces it. Group `progress`.
   */
  progress(fence: Fence, value: Json): Promise<boolean>;
  /** Many settles in ONE round trip (statement or script); `landed` per item, in order. */
  ackMany(items: readonly AckItem[]): Promise<readonly boolean[]>;
  nackMany(items: readonly NackItem[]): Promise<readonly boolean[]>;
  /**
   * Many `extend`s in ONE round trip where the backend allows (statement or script; NATS KV:
   * the per-item conditional writes, issued together); answers per item, in input order. Each
   * item is fenced on its own: it lands (`visibleAt = now + vt`, `updatedAt = now`, one `now`
   * for the batch) only when the row is `running` with this `claimedBy` and `claim` (a lapsed
   * lease not yet re-claimed still lands); a stale, unknown or settled fence answers false and
   * changes nothing. A fence given twice answers alike both times. Items are screened fences
   * (the same batch bound as `ackMany`); core answers an empty batch `[]` without calling the
   * backend. Group `settle`.
   */
  extendMany(items: readonly Fence[], visibilityTimeoutMs: number): Promise<readonly boolean[]>;

  /**
   * By-id calls. With `tenantId`, a row of another tenant (or of none) is treated exactly as an
   * id nobody queued. Group `operator`, `tenancy`.
   * - get → the record with its effective state, or `undefined`.
   * - cancel → LIVE rows become `cancelled` (`finishedAt`); else JOB_NOT_CANCELLABLE.
   * - promote → an effectively `delayed` row becomes `ready`, `runAt = now`; else
   *   JOB_NOT_PROMOTABLE. Both answer the updated record; missing ids are JOB_NOT_FOUND.
   * - requeue → JOB_NOT_FOUND; JOB_NOT_REQUEUEABLE (`meta.state` effective); JOB_DUPLICATE when
   *   a LIVE row holds its key; STEP_INVALID when `fromStep` names no step of the run; then
   *   `hooks.afterRequeueCheck()`; then ONE atomic change, conditional on the row still being
   *   REQUEUEABLE: `ready`, `runAt = now`, `attempts = 0`, `finishedAt`/`result`/`claimedBy`/
   *   `visibleAt` cleared, and `fromStep` with every step written after it deleted. When the
   *   condition fails: JOB_NOT_REQUEUEABLE with `meta.state = "live"`. Group `requeue`.
   */
  get(id: string, options: ByIdOptions): Promise<JobRecord | undefined>;
  cancel(id: string, options: ByIdOptions): Promise<JobRecord>;
  promote(id: string, options: ByIdOptions): Promise<JobRecord>;
  requeue(id: string, options: RequeueOptions): Promise<JobRecord>;
  /**
   * Up to `limit + 1` rows matching every given filter (`state` is the effective state), walking
   * from the cursor: with `before`, rows before it nearest first (ascending); otherwise rows after
   * it (or from the newest) in list order. Keyset, never offset. Group `list`.
   */
  list(request: ScreenedList): Promise<readonly PositionedJob[]>;
  /** Per queue holding any row, sorted by queue name. Group `stats`. */
  stats(): Promise<readonly QueueStats[]>;
  /**
   * Removes TERMINAL rows of `states` with `finishedAt < olderThan`, and their steps and logs; with `ids`,
   * only rows among them (screened: 1..MAX_JOB_PAGE distinct uuids). At most `limit` rows go
   * (always filled in by core, 1..MAX_PURGE_LIMIT), oldest `finishedAt` first across the states,
   * then insertion order; a row another transaction holds is skipped, never waited for. Answers
   * the exact count removed; the work is bounded by `limit`, never by the backlog. Groups
   * `stats`, `scale`.
   */
  purge(request: ScreenedPurge): Promise<number>;

  readonly steps: StepStore;
  /** See `AttemptStore`: records written inside the changes that end attempts. */
  readonly attempts: AttemptBackend;
  readonly events: EventBackend;
  readonly leases: LeaseStore;
  /**
   * Marks: `get` answers the stored value or undefined; `advance` raises it in ONE atomic
   * change only when unset or lower (the highest of racing advances wins) and answers whether
   * it moved. Names are screened like lease names, values are safe integers >= 0. Group `marks`.
   */
  readonly marks: MarkStore;
  /** Paused queues; `claim` skips them inside its atomic change (contract/pause.ts). Group `pause`. */
  readonly pauses: PauseBackend;
  /** The backfill ledger (see `BackfillBackend`). */
  readonly backfills: BackfillBackend;
  /** Stored schedules (see `ScheduleBackend`). Group `schedules`. */
  readonly schedules: ScheduleBackend;
  /** Job logs: see `LogStore` for what each call must do. Group `logs`. */
  readonly logs: LogBackend;
  /**
   * The lifecycle event stream (see `LifecycleStore` for what each call answers). Each event is
   * written in the SAME atomic change as the transition it tells of (claim, ack, nack, suspend,
   * progress, cancel, a claim's burial), only when that change lands: the types and which change
   * writes each are in `LifecycleEventType`'s doc. Group `lifecycle`.
   */
  readonly lifecycle: LifecycleBackend;
  /**
   * Resolves once the backend is reachable and holds everything this driver needs: one cheap
   * round trip (pg: the applied migration version against the driver's latest; redis: a read of
   * a key of its prefix, so a cluster answers from the node holding it; memory: nothing).
   * DRIVER_NOT_MIGRATED (via `driverNotMigrated`) when the schema is missing or older; any raw
   * failure becomes DRIVER_UNAVAILABLE. A backend also answers
   * DRIVER_NOT_MIGRATED, never DRIVER_UNAVAILABLE, for any statement that fails because its
   * schema or tables do not exist. Group `check`.
   */
  check(): Promise<void>;
  /**
   * Optional wake, on every instance of the deployment (a change made through any driver over
   * the same store is heard), delivered after the change landed, never inside it. Group `wake`.
   * - `onWork(queue)`: once per change that made work claimable in a subscribed queue.
   * - `onCancelled(jobId)`, when given: once per cancel (`cancel`, and so the CLI and the
   *   dashboard) that moved a `running` row of a subscribed queue to `cancelled`; never for a
   *   cancel of a row in another state, nor for one that did not land. It is a hint, as
   *   `onWork` is: a worker that hears it renews that job's lease at once, and the renewal's
   *   refusal ends the attempt, so a notice lost (a reconnect) only delays the abort to the
   *   next renewal. Every driver that offers `subscribe` delivers it (the kit checks both).
   */
  subscribe?(
    queues: readonly string[],
    onWork: (queue: string) => void,
    onCancelled?: (jobId: string) => void,
  ): Promise<Unsubscribe>;
  /**
   * Optional settle notices, on every instance of the deployment, for result waits in any
   * process. `onSettled(jobIds)` hears the id of each job a change moved to `completed`,
   * `failed`, `dead` or `cancelled`: an `ack`, a `nack` that settled (final, attempts spent, or
   * `cancel: true`), `cancel` of a job in any live state, and a claim that settled a lapsed
   * final attempt (LEASE_LAPSED). Never a `nack` that sent the job back to work, nor a change
   * that did not land. Delivered after the change landed, never inside it; one call may carry
   * the ids of one change or of several, each settle's id once. Ids only: a listener reads the
   * record (with its own tenant) to learn the answer. It is a hint, as the wake is: a notice
   * lost (a reconnect) only delays a wait to its next poll. Its cost must not grow with the
   * number of listeners per change (one NOTIFY, one PUBLISH, one message per change or batch,
   * never one per row). Group `wake`.
   */
  watchSettles?(onSettled: (jobIds: readonly string[]) => void): Promise<Unsubscribe>;
  /**
   * Releases what the driver opened; never a connection the app passed in. Called once:
   * `createDriver` makes close idempotent and refuses every later call DRIVER_CLOSED.
   */
  close(): Promise<void>;
}

/** The race seams the conformance kit uses. Production code never sets them. */
export interface DriverHooks {
  /** Between an insert refused by a live key holder and the holder lookup. */
  afterEnqueueConflict?(): Promise<void>;
  /** Between requeue's checks and its atomic change. */
  afterRequeueCheck?(): Promise<void>;
  /**
   * Once per enqueue with `advanceMark`, after what it decides from was read and before its
   * change is written: before the one atomic change (memory, pg, redis), after the mark and the
   * job's key were read (NATS).
   */
  beforeMarkedEnqueue?(): Promise<void>;
}
