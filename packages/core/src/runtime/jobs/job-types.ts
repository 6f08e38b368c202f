import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { ClaimedJob, JobError, JobRecord, Json } from '../../contract/records.js';
import type { JsonShaped } from '../../json-shape.js';
import type { JobLog } from '../logs/job-log.js';
import type { StepApi } from '../steps/index.js';
import type { RuntimeLogger } from '../worker/logger.js';
import type { BatchOptions } from './batch-types.js';

/** What a handler may answer: JSON (stored as the job's `result`), or nothing. */
// biome-ignore lint/suspicious/noConfusingVoidType: a handler that returns nothing infers void.
export type JobResult = Json | undefined | void;

/** Exponential backoff between attempts: `initialMs * factor^(n-1)`, capped, then jittered. */
export interface BackoffOptions {
  /** The wait after the first failed attempt, ms. Default 1 000. */
  readonly initialMs?: number;
  /** Growth per failed attempt. Default 2. */
  readonly factor?: number;
  /** The longest wait, ms, applied before jitter. Default 300 000 (5 minutes). */
  readonly maxMs?: number;
  /**
   * The share of the wait that is random, 0..1: the wait lands in `[d * (1 - jitter), d]`.
   * Default 0.2. 0 gives exact waits.
   */
  readonly jitter?: number;
}

export interface RetryOptions {
  /** Attempts in all, the first included. Default DEFAULT_MAX_ATTEMPTS (3). */
  readonly maxAttempts?: number;
  readonly backoff?: BackoffOptions;
  /**
   * Where a job that runs out of attempts (or throws a non-retryable error) goes: `dead`
   * (true, default) or `failed` (false), also when its final attempt's lease lapses.
   */
  readonly deadLetter?: boolean;
}

/**
 * At most `limit` attempts of this job run at once across every worker on the driver; with
 * `key`, at most `limit` per key value. Held through the driver's slots.
 */
/**
 * What a job does when its key is busy:
 * - `queue` (default): it waits for a slot of its key.
 * - `skip`: taken up for the first time while `limit` jobs of its key run, it is not started and
 *   settles `cancelled` (lastError JOB_SKIPPED).
 * - `replace`: the newest job of a key wins: a job taken up (or retried, or resumed) after a newer
 *   job of its name, tenant and key was enqueued settles `cancelled` unrun (JOB_SUPERSEDED); a
 *   job already running finishes. An enqueue that names its own `id` takes no part.
 */
export type WhenBusy = 'queue' | 'skip' | 'replace';

export const WHEN_BUSY: readonly WhenBusy[] = ['queue', 'skip', 'replace'];

export interface ConcurrencyOptions<TPayload> {
  readonly limit: number;
  /** The key a payload counts under (e.g. its account id). Stored as the job's concurrencyKey. */
  key?(payload: TPayload): string;
  /** What a job does when its key is busy. Default `queue`. */
  readonly whenBusy?: WhenBusy;
}

/** At most `limit` attempt starts per `intervalMs` across the fleet; with `key`, per key value. */
export interface RateLimitOptions<TPayload> {
  readonly limit: number;
  readonly intervalMs: number;
  key?(payload: TPayload): string;
}

/**
 * What `run` is given for one attempt. `signal`, `step` and `logger` are made on first read
 * (getters), so a handler that never reads them costs nothing for them: destructure them or pass
 * the context on whole; a spread copy (`{ ...ctx }`) carries only `payload`, `job` and `attempt`.
 */
export interface JobContext<TPayload> {
  /** The payload, as the job's schema answered it at enqueue. */
  readonly payload: TPayload;
  /** Durable steps of this run; each write is fenced by this attempt's claim. */
  readonly step: StepApi;
  /** Aborts on cancel, lost lease, timeout (JOB_TIMEOUT) or drain (WORKER_DRAINING). */
  readonly signal: AbortSignal;
  /** The claimed row. */
  readonly job: ClaimedJob;
  /** The attempt number, 1 on the first (a resumed run keeps its attempt). */
  readonly attempt: number;
  /** The worker's logger, with this job's id, name and attempt in every line. */
  readonly logger: RuntimeLogger;
  /**
   * Reports how far the attempt got: `get()` and `list()` show the value as the job's
   * `progress`, and the worker emits `progress` as it lands. Throttled: only the latest value is
   * kept and written at most every PROGRESS_INTERVAL_MS, the last one before the settle. Fenced:
   * once the attempt lost its lease nothing it reports lands. Never blocks and never rejects;
   * the answer (true once this value or a later one landed) may be ignored. A value that is not
   * JSON, or over MAX_PROGRESS_BYTES, throws JOB_INVALID here.
   */
  progress<T extends JsonShaped<T> & ProgressValue>(value: T): Promise<boolean>;
  /** Lines kept with the job: `ctx.log('text')`, `ctx.log.warn(...)` (see {@link JobLog}). */
  readonly log: JobLog;
}

/** What a progress value may be at its top: a JSON leaf or an object (checked by `JsonShaped`). */
export type ProgressValue = string | number | boolean | null | object;

/** What a completed job's result is, given what `run` returns: `void` reads as `undefined`. */
export type ResultValue<TResult> = TResult extends void ? undefined : TResult;

/** How an attempt settled, as `onSettled` and the worker's events report it. */
export type SettledOutcome<TResult = JobResult> =
  | { readonly state: 'completed'; readonly result: ResultValue<TResult> }
  | { readonly state: 'retrying'; readonly error: JobError; readonly retryAt: number }
  | { readonly state: 'failed' | 'dead'; readonly error: JobError };

/** What `onSettled` is given besides the outcome. */
export interface SettledContext<TPayload> {
  readonly payload: TPayload;
  /** The row as it was claimed (or, for a burial, as the claim left it). */
  readonly job: JobRecord;
  readonly attempt: number;
  readonly logger: RuntimeLogger;
}

/** What `declareJob` takes: everything about a job but its handler. */
export interface JobContractOptions<TInput, TPayload> {
  /** Unique per app: the worker finds the handler by it. */
  readonly name: string;
  /** Default DEFAULT_QUEUE (`default`). */
  readonly queue?: string;
  /** Any Standard Schema validator (zod, valibot, arktype): checked at enqueue. */
  readonly schema?: StandardSchemaV1<TInput, TPayload>;
  readonly retry?: RetryOptions;
  /** Ms one attempt may run; past it the attempt is aborted and fails with JOB_TIMEOUT. */
  readonly timeout?: number;
  /** A number is `{ limit }`: this job's fleet-wide limit. */
  readonly concurrency?: number | ConcurrencyOptions<TPayload>;
  readonly rateLimit?: RateLimitOptions<TPayload>;
}

/** What a job's handler is: `implementJob` takes it, `defineJob` takes it with the contract. */
export interface JobImplementation<TPayload, TResult> {
  /** The handler: its answer (JSON) becomes the job's result, typed as `run` returns it. */
  run(context: JobContext<TPayload>): TResult | Promise<TResult>;
  /**
   * Runs after the settle landed (completed, retrying, failed, dead, and lease burials), up to
   * ON_SETTLED_ATTEMPTS times while it throws; it never changes the job's state.
   */
  onSettled?(
    outcome: SettledOutcome<TResult>,
    context: SettledContext<TPayload>,
  ): void | Promise<void>;
}

/** What `defineJob` takes: the contract's options and the handler. */
export interface JobOptions<TInput, TPayload, TResult = JobResult>
  extends JobContractOptions<TInput, TPayload>,
    JobImplementation<TPayload, TResult> {}

/**
 * A job's contract, without its handler: what a producer needs to enqueue it type-safely and
 * read its result (`declareJob`), while only the worker imports the handler (`implementJob`).
 */
export interface JobContract<
  TInput = Json,
  TPayload = TInput,
  TResult = JobResult,
  TName extends string = string,
> extends JobContractOptions<TInput, TPayload> {
  /** The job's name: its literal type when `defineJob` could infer it, so events narrow by it. */
  readonly name: TName;
  readonly queue: string;
  /** Resolved: `maxAttempts` and `backoff` filled, `deadLetter` explicit. */
  readonly retry: ResolvedRetry;
  /** The normalized fleet-wide concurrency, when the job has one. */
  readonly concurrency?: ConcurrencyOptions<TPayload>;
  /** Type only, never set: carries the result type to producers that never see `run`. */
  readonly '~result'?: TResult;
}

/**
 * A job definition: what the client enqueues (`TInput`, the schema's input), what the handler
 * receives (`TPayload`, the schema's output) and what it answers (`TResult`). Without a schema
 * the payloads are `Json`; without a type argument the result is what `run` returns.
 */
export interface JobDefinition<
  TInput = Json,
  TPayload = TInput,
  TResult = JobResult,
  TName extends string = string,
> extends JobContract<TInput, TPayload, TResult, TName>,
    JobImplementation<TPayload, TResult> {
  /** Set for a batch job: its `run` gathers each attempt into a batch (see BatchOptions). */
  readonly batch?: BatchOptions;
}

export interface ResolvedRetry {
  readonly maxAttempts: number;
  readonly backoff: Required<BackoffOptions>;
  readonly deadLetter: boolean;
}

/** Any job definition, whatever its payload: what workers and clients take in lists. */
export type AnyJobDefinition = JobDefinition<unknown, unknown, unknown>;

/** Any job contract (a definition is one too): what a client enqueues. */
export type AnyJobContract = JobContract<unknown, unknown, unknown>;

/** What the client's `enqueue` takes as the payload of `job`. */
export type JobInput<J> =
  J extends JobContract<infer TInput, infer _TPayload, infer _TResult> ? TInput : never;

/** The name of `job`: a string literal when its definition kept one, else `string`. */
export type JobNameOf<J> = J extends { readonly name: infer TName extends string } ? TName : never;

/** What `run` receives as the payload of `job`. */
export type JobPayload<J> =
  J extends JobContract<infer _TInput, infer TPayload, infer _TResult> ? TPayload : never;

/**
 * What a completed run of `job` answered: `completed` events, `get()` and `result()` give it. A
 * job whose result type is unknown (one of a list of `AnyJobDefinition`) answers stored JSON.
 */
export type JobResultOf<J> =
  J extends JobContract<infer _TInput, infer _TPayload, infer TResult>
    ? unknown extends TResult
      ? Json | undefined
      : ResultValue<TResult>
    : never;
