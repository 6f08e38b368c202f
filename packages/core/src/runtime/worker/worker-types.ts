import type { AttemptRecord } from '../../contract/attempts.js';
import type { Driver } from '../../contract/driver.js';
import type { ClaimedJob, JobError, JobRecord, Json } from '../../contract/records.js';
import type { BerthError } from '../../errors/berth-error.js';
import type { AnyJobDefinition, JobNameOf, JobResultOf } from '../jobs/job-types.js';
import type { RuntimeLogger } from './logger.js';

export interface WorkerOptions<
  J extends readonly AnyJobDefinition[] = readonly AnyJobDefinition[],
> {
  readonly driver: Driver;
  /** The jobs this worker runs; a claimed job of another name is failed with a retry. */
  readonly jobs: J;
  /** The queues to claim from. Default: every queue the jobs name. */
  readonly queues?: readonly string[];
  /** Handlers this worker runs at once; it claims no more than it has free (plus `prefetch`). */
  readonly concurrency: number;
  /** The lease length, ms; renewed every `renewIntervalMs` while a handler runs. */
  readonly visibilityTimeoutMs: number;
  /** How often the worker looks for work when no wake arrives, ms. Default 1 000. */
  readonly pollIntervalMs?: number;
  /** Default `worker-<uuid>`. */
  readonly workerId?: string;
  /** Default: the console at `warn` and above. */
  readonly logger?: RuntimeLogger;
  /** Acks and nacks finishing within this window land in one ackMany/nackMany, ms. Default 5; 0 gathers one tick. */
  readonly settleBatchMs?: number;
  /** Lease renewal period, ms. Default a third of `visibilityTimeoutMs`. */
  readonly renewIntervalMs?: number;
  /** How long a job whose concurrency key or rate limit is busy waits before it is tried again, ms. Default 1 000. */
  readonly keyBusyDelayMs?: number;
  /**
   * Jobs the worker may claim ahead of its free slots, 0 to MAX_CLAIM_BATCH (1 000). Default 0.
   * They wait in a local buffer, their leases renewed, and start as slots free, so the next
   * claim's round trip overlaps with running jobs; `stop()` hands back the ones not started at
   * once (due now, the attempt not counted). Other workers cannot take a job while it is buffered.
   */
  readonly prefetch?: number;
  /** Random source of the backoff jitter, `[0, 1)`. Default Math.random. */
  readonly random?: () => number;
  /** The timeout of a `step.run` that names none, ms. */
  readonly defaultStepTimeoutMs?: number;
  /** Longest park of an event wait before it looks again, ms (the step runner's default otherwise). */
  readonly eventPollMs?: number;
  /**
   * A queue this worker claims that holds ready jobs of a name it does not run, waiting longer
   * than this, is logged once per (queue, name) at `warn`: nothing claims them until a worker
   * runs that name. Also how often it looks (one list page per queue), ms, an integer >= 1 000.
   * Default 300 000 (5 minutes).
   */
  readonly staleReadyAfterMs?: number;
}

/**
 * Why a job went back to `suspended`: a step parked it, its key was busy, the worker drained,
 * or the attempt lost its concurrency slot (handed back to wait for it again).
 */
export type SuspendReason = 'step' | 'key-busy' | 'drain' | 'slot-lost';

/** One of a worker's jobs as its events see it: the job's name and what its run answers. */
export interface WorkerJobShape {
  readonly name: string;
  readonly result: unknown;
}

/** The shapes of a worker's jobs, one per definition: what narrows its events by name. */
export type WorkerJobsOf<J> = J extends AnyJobDefinition
  ? { readonly name: JobNameOf<J>; readonly result: JobResultOf<J> }
  : never;

/** `T` with the job's `name` beside it, one member per job: a union narrowed by `name`. */
type PerJob<TJobs extends WorkerJobShape, T> = TJobs extends WorkerJobShape
  ? { readonly name: TJobs['name'] } & T
  : never;

/**
 * The worker's lifecycle events and what each listener is given. Each names its job (`name`):
 * `TJobs` holds one `{ name, result }` per job the worker runs, so a check of `name` narrows the
 * event, and `completed`'s `result` to that job's result type. `TResult` is the union of the
 * results, for a worker whose jobs' names are not literal types.
 */
export interface WorkerEvents<
  TResult = Json | undefined,
  TJobs extends WorkerJobShape = { readonly name: string; readonly result: TResult },
> {
  /**
   * The handler starts: the job was claimed and admitted (its concurrency and rate limits let it
   * run). A job handed back because its key was busy, or aborted before it started, never
   * emits it. `attempt` is the attempt number (a resumed run keeps its attempt).
   */
  readonly active: PerJob<TJobs, { readonly job: ClaimedJob; readonly attempt: number }>;
  /**
   * This worker took the job again after another claim's lease lapsed (that worker crashed,
   * stalled or lost its connection, and its lease ran out): `lapsed` is that attempt's record
   * (`workerId`, `claimedAt`, `endedAt`). Emitted after the claim, before or while the handler
   * runs; finding it costs one read of the job's attempt history per job claimed again (a retry
   * too), made only while a listener is on. A lease that lapses on the final attempt is buried
   * instead (`dead` or `failed`, LEASE_LAPSED) and emits no `stalled`.
   */
  readonly stalled: PerJob<TJobs, { readonly job: ClaimedJob; readonly lapsed: AttemptRecord }>;
  /** The ack landed. */
  readonly completed: TJobs extends WorkerJobShape
    ? {
        readonly name: TJobs['name'];
        readonly job: ClaimedJob;
        readonly result: TJobs['result'];
      }
    : never;
  /** The nack landed and the job runs again at `retryAt`. */
  readonly retrying: PerJob<
    TJobs,
    { readonly job: ClaimedJob; readonly error: JobError; readonly retryAt: number }
  >;
  /** The job settled `failed` (`deadLetter: false`), by a nack or a lease burial. */
  readonly failed: PerJob<TJobs, { readonly job: JobRecord; readonly error: JobError }>;
  /** The job settled `dead`, by a nack or a lease burial (`lastError.code` LEASE_LAPSED). */
  readonly dead: PerJob<TJobs, { readonly job: JobRecord; readonly error: JobError }>;
  /**
   * The job was not run and settled `cancelled`: its key was busy on its first start
   * (`whenBusy: 'skip'`, error JOB_SKIPPED), or a newer job of its debounce key or replace key
   * was enqueued since (JOB_SUPERSEDED). Its handler never started.
   */
  readonly cancelled: PerJob<TJobs, { readonly job: ClaimedJob; readonly error: JobError }>;
  /** The lease was lost or the job cancelled: the handler's signal aborted, nothing was settled. */
  readonly 'lease-lost': PerJob<TJobs, { readonly job: ClaimedJob; readonly error: BerthError }>;
  /**
   * A settle (ack, nack or suspend) kept failing, retried with backoff, until the lease ran out
   * or the worker stopped: nothing landed, and the lease lapses (the job runs again, or on its
   * final attempt is buried LEASE_LAPSED).
   */
  readonly 'settle-failed': PerJob<
    TJobs,
    {
      readonly job: ClaimedJob;
      /** How the attempt ended, which the settle was to land. */
      readonly settle:
        | 'completed'
        | 'failed'
        | 'suspended'
        | 'key-busy'
        | 'drained'
        | 'slot-lost'
        | 'not-run';
      readonly error: unknown;
      readonly tries: number;
    }
  >;
  /**
   * A value the handler reported (`ctx.progress`) landed: `get()` and `list()` show it now.
   * Throttled as the writes are: a value replaced within the interval is never emitted.
   */
  readonly progress: PerJob<TJobs, { readonly job: ClaimedJob; readonly value: Json }>;
  /** The job was parked (`suspended`) until `until`. */
  readonly suspended: PerJob<
    TJobs,
    {
      readonly job: ClaimedJob;
      readonly until: number;
      readonly waitFor?: string;
      readonly reason: SuspendReason;
    }
  >;
}

export type WorkerEventName = keyof WorkerEvents;

export interface StopOptions {
  /**
   * How long the whole stop may take, ms (default 30 000): running attempts may finish until a
   * tenth of it (at most STOP_HANDBACK_MS) is left, then are aborted and handed back within it.
   */
  readonly graceMs?: number;
}

/**
 * A worker; `TResult` is what its jobs answer, as its `completed` event gives it, and `TJobs`
 * each job's name and result, by which its events narrow.
 */
export interface Worker<
  TResult = Json | undefined,
  TJobs extends WorkerJobShape = { readonly name: string; readonly result: TResult },
> {
  readonly workerId: string;
  /**
   * Checks the driver first (`driver.check()`): an unmigrated schema rejects at once with
   * DRIVER_NOT_MIGRATED, an unreachable backend with DRIVER_UNAVAILABLE. Then subscribes to
   * wake-ups, starts polling and claims at once.
   */
  start(): Promise<void>;
  /**
   * Drains: stops claiming, lets running attempts finish, then aborts the rest (WORKER_DRAINING)
   * and hands them back without counting the attempt; resolves within `graceMs` (plus at most
   * STOP_SLACK_MS) even while a driver call hangs, leaving what did not land to its lease.
   * It never closes the driver, which the app created and may share: once every worker,
   * scheduler and retention of it has stopped, `await driver.close()` — an open pg pool, Redis
   * or NATS connection keeps the process alive after a shutdown.
   */
  stop(options?: StopOptions): Promise<void>;
  /** Listens to a lifecycle event; answers a function that stops listening. */
  on<E extends WorkerEventName>(
    event: E,
    listener: (payload: WorkerEvents<TResult, TJobs>[E]) => void,
  ): () => void;
  /**
   * Handlers running now (each holds one of `concurrency` slots until it returns; its ack may
   * still be landing, and stop() waits for it). Jobs waiting in the prefetch buffer, and jobs
   * waiting on this worker for their key's concurrency slot, are not counted.
   */
  running(): number;
}
