import type { BackfillControl } from '../../backfills/control.js';
import type { AttemptHistory } from '../../contract/attempts.js';
import type { Driver } from '../../contract/driver.js';
import type { EventRecord, PublishOptions } from '../../contract/events.js';
import type {
  LifecycleEvent,
  LifecyclePage,
  LifecycleReadRequest,
} from '../../contract/lifecycle.js';
import type { LogListOptions, LogPage } from '../../contract/logs.js';
import type { PauseOptions, QueuePause } from '../../contract/pause.js';
import type { ByIdOptions, EnqueueResult, JobRecord, Json } from '../../contract/records.js';
import type { EventDefinition } from '../events/define-event.js';
import type { FlowEnqueued, FlowInput } from '../flows/flow-types.js';
import type { AnyJobContract, JobContract, JobInput, ResultValue } from '../jobs/job-types.js';
import type { LifecycleTailOptions } from '../lifecycle/tail.js';
import type { ScheduleControl } from '../schedules/schedule-types.js';
import type { WaitOptions } from './await-result.js';
import type { DebounceOptions } from './supersede.js';
import type { ThrottleOptions } from './throttle.js';

export type { WaitOptions } from './await-result.js';

/** Per-enqueue options; every one is optional. */
export interface EnqueueOptions {
  /** Run no sooner than this many ms from now (the driver's clock). Not with `runAt`. */
  readonly delay?: number;
  /** Run no sooner than this instant (epoch ms). Not with `delay`. */
  readonly runAt?: number;
  /** Higher is claimed first. Default 0. */
  readonly priority?: number;
  /** A live job of this name and tenant holding the key answers instead (or throws, see onConflict). */
  readonly idempotencyKey?: string;
  /** `dedupe` (default) answers the live holder; `error` throws JOB_DUPLICATE. */
  readonly onConflict?: 'dedupe' | 'error';
  readonly tenantId?: string;
  /**
   * A uuid the caller allocated; a second enqueue of it answers the first job, deduped (in the
   * same tenant; another tenant's id is JOB_INVALID, "the id is taken").
   */
  readonly id?: string;
  /**
   * At most one job of this name (and tenant) per `key` per window of `ms`: an enqueue in a
   * window that already made its job answers that job (`deduped: true`). Fixed windows from the
   * epoch; not with `id` (JOB_INVALID).
   */
  readonly throttle?: ThrottleOptions;
  /**
   * One run after `ms` of quiet, with the last payload: the job runs `ms` after this enqueue, and
   * a later enqueue of the same job name, tenant and `key` before a worker takes it up settles it
   * `cancelled` unrun (JOB_SUPERSEDED) and runs `ms` after itself instead. Not with `id`,
   * `throttle`, `runAt` or `delay` (JOB_INVALID).
   */
  readonly debounce?: DebounceOptions;
  /** Overrides the queue the job definition names. */
  readonly queue?: string;
  /** Overrides the key derived from the job's keyed concurrency. */
  readonly concurrencyKey?: string;
  /** Overrides the job's `retry.maxAttempts`. */
  readonly maxAttempts?: number;
  /** Overrides the traceparent captured from the active OpenTelemetry span. */
  readonly traceparent?: string;
  /** Who enqueued it, for operators. */
  readonly enqueuedBy?: string;
}

/** One item of `enqueueMany`: the payload is checked against its own job. */
export interface EnqueueItem<J extends AnyJobContract = AnyJobContract> {
  readonly job: J;
  readonly payload: JobInput<J>;
  readonly options?: EnqueueOptions;
}

export interface ClientOptions {
  readonly driver: Driver;
  /** When given, the client enqueues only these jobs (a guard against a stray definition). */
  readonly jobs?: readonly AnyJobContract[];
}

/** `enqueueAndWait`'s options: the enqueue's, the wait's (`timeoutMs`, `signal`). */
export interface EnqueueAndWaitOptions extends EnqueueOptions, WaitOptions {}

/** A job's record with its payload and result typed as its job declares them. */
export interface TypedJobRecord<TPayload, TResult> extends Omit<JobRecord, 'payload' | 'result'> {
  readonly payload: TPayload;
  /** Set once the job completed. */
  readonly result?: TResult;
}

/** One enqueued job of a known kind: read it, or wait for its result. */
export interface JobHandle<TPayload, TResult> {
  readonly id: string;
  /** The job's record, typed; JOB_NOT_FOUND when the queue no longer holds it. */
  get(): Promise<TypedJobRecord<TPayload, TResult>>;
  /**
   * Waits for the job to settle: its result once `completed`; JOB_FAILED when it settles
   * failed, dead or cancelled; JOB_WAIT_TIMEOUT past `timeoutMs` (default 60 s).
   */
  result(options?: WaitOptions): Promise<TResult>;
  /** The job's attempt history, oldest first (bounded); JOB_NOT_FOUND when the queue no longer holds it. */
  attempts(): Promise<AttemptHistory>;
}

/** The deployment's lifecycle event stream, as an app reads it (see `driver.lifecycle`). */
export interface ClientLifecycle {
  /** One page of events after `after`, filtered; pass the answer's `next` back to read on. */
  read(request?: LifecycleReadRequest): Promise<LifecyclePage>;
  /** The newest event's position (`undefined` when none). */
  end(): Promise<string | undefined>;
  /**
   * Every matching event as it happens, for `for await`: from now on (`from: 'end'`, default),
   * from the oldest kept (`'start'`), or after a saved `position`. Ends when `signal` aborts or
   * the loop breaks; a read the driver could not answer is retried from the same position.
   */
  tail(options?: LifecycleTailOptions): AsyncGenerator<LifecycleEvent, void, undefined>;
}

export interface Client {
  readonly driver: Driver;
  /**
   * What happened to every job (`active`, `progress`, `completed`, `retried`, `failed`, `dead`,
   * `stalled`, `cancelled`…), in one stored, ordered stream any process can read and resume.
   */
  readonly lifecycle: ClientLifecycle;
  /**
   * Checks `payload` against the job's schema (JOB_INVALID with `meta.issues`) and enqueues it.
   * The payload's type is the job's input type: a wrong payload does not compile.
   */
  enqueue<TInput, TPayload, TResult>(
    job: JobContract<TInput, TPayload, TResult>,
    payload: NoInfer<TInput>,
    options?: EnqueueOptions,
  ): Promise<EnqueueResult>;
  /**
   * Enqueues, then waits for the job to settle and answers its result, typed as the job's `run`
   * returns it (JOB_FAILED / JOB_WAIT_TIMEOUT as `handle.result()`).
   */
  enqueueAndWait<TInput, TPayload, TResult>(
    job: JobContract<TInput, TPayload, TResult>,
    payload: NoInfer<TInput>,
    options?: EnqueueAndWaitOptions,
  ): Promise<ResultValue<TResult>>;
  /** A handle on job `id` of kind `job` (e.g. from `enqueue`'s answer): typed reads and waits. */
  handle<TInput, TPayload, TResult>(
    job: JobContract<TInput, TPayload, TResult>,
    id: string,
    options?: ByIdOptions,
  ): JobHandle<TPayload, ResultValue<TResult>>;
  /**
   * Job `id`'s record, payload and result typed as `job` declares them. JOB_NOT_FOUND when the
   * queue holds no such job, or holds it under another job name.
   */
  get<TInput, TPayload, TResult>(
    job: JobContract<TInput, TPayload, TResult>,
    id: string,
    options?: ByIdOptions,
  ): Promise<TypedJobRecord<TPayload, ResultValue<TResult>>>;
  /**
   * Job `id`'s attempt history: each ended attempt's outcome, worker, instants and error, oldest
   * first, at most MAX_ATTEMPT_RECORDS (see `dropped`). JOB_NOT_FOUND as `get`.
   */
  attempts(id: string, options?: ByIdOptions): Promise<AttemptHistory>;
  /** Many jobs in one driver call, answered in order; atomic on a JOB_DUPLICATE. */
  enqueueMany<const T extends readonly AnyJobContract[]>(
    items: {
      readonly [K in keyof T]: EnqueueItem<T[K]>;
    },
  ): Promise<readonly EnqueueResult[]>;
  /**
   * Enqueues a flow: the parent job and its children (any jobs, any queues) in ONE atomic batch,
   * each child with the parent as its `parentId` and the parent's tenant. The parent runs at
   * once; its handler reads how the children settled with `await ctx.step.children()`, which
   * parks it (no worker held) until every child has, and answers their outcomes in this order,
   * results typed by `step.children(job)`. Each child's `onFailure` (`fail`, default; `ignore`;
   * `continue`) says what its failure does to the parent. At most MAX_FLOW_CHILDREN children.
   * With the parent's `options.id`, a retried call answers the same jobs, deduped.
   */
  enqueueFlow<P extends AnyJobContract, const C extends readonly AnyJobContract[]>(
    flow: FlowInput<P, C>,
  ): Promise<FlowEnqueued>;
  /**
   * Publishes an event; runs waiting for it (`step.waitForEvent`) resume at once. A declared event
   * (`defineEvent`) types the payload and checks it against its schema (JOB_INVALID otherwise).
   */
  publish<TInput, TPayload>(
    event: EventDefinition<TInput, TPayload>,
    payload: NoInfer<TInput>,
    options?: PublishOptions,
  ): Promise<EventRecord<TPayload>>;
  publish(event: string, payload: Json, options?: PublishOptions): Promise<EventRecord>;
  /**
   * Pauses `queue` for every worker of the deployment: claims that start after it answered take
   * nothing from it, on any process; enqueues still land and running jobs finish. Idempotent (a
   * second pause answers the first one's `pausedAt`). A pause holds every tenant's jobs, so a
   * `tenantId` is refused (JOB_INVALID).
   */
  pause(queue: string, options?: PauseOptions): Promise<QueuePause>;
  /** Resumes `queue`; workers claiming from it are woken at once, as by an enqueue. */
  resume(queue: string, options?: PauseOptions): Promise<QueuePause>;
  /** Every paused queue, sorted by name. */
  paused(options?: PauseOptions): Promise<readonly QueuePause[]>;
  /**
   * A page of job `id`'s log lines (what its handlers wrote with `ctx.log`), oldest first:
   * `{ lines, next?, dropped }`; pass `next` back as `after` for the next page. JOB_NOT_FOUND
   * when the queue holds no such job (or, with `tenantId`, not for that tenant).
   */
  logs(id: string, options?: LogListOptions): Promise<LogPage>;
  /** Backfill runs: start, pause, resume, cancel, read (see `defineBackfill`). */
  readonly backfills: BackfillControl;
  /**
   * Schedules stored by the driver: upsert, pause, resume, remove, read. Every running
   * scheduler (`createScheduler`) enqueues their slots from its next tick, without a restart.
   */
  readonly schedules: ScheduleControl;
}
