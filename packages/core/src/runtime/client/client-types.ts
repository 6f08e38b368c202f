import type { Driver } from '../../contract/driver.js';
import type { EventRecord, PublishOptions } from '../../contract/events.js';
import type { EnqueueResult, Json } from '../../contract/records.js';
import type { AnyJobDefinition, JobDefinition, JobInput } from '../jobs/job-types.js';

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
export interface EnqueueItem<J extends AnyJobDefinition = AnyJobDefinition> {
  readonly job: J;
  readonly payload: JobInput<J>;
  readonly options?: EnqueueOptions;
}

export interface ClientOptions {
  readonly driver: Driver;
  /** When given, the client enqueues only these jobs (a guard against a stray definition). */
  readonly jobs?: readonly AnyJobDefinition[];
}

export interface Client {
  readonly driver: Driver;
  /**
   * Checks `payload` against the job's schema (JOB_INVALID with `meta.issues`) and enqueues it.
   * The payload's type is the job's input type: a wrong payload does not compile.
   */
  enqueue<TInput, TPayload>(
    job: JobDefinition<TInput, TPayload>,
    payload: NoInfer<TInput>,
    options?: EnqueueOptions,
  ): Promise<EnqueueResult>;
  /** Many jobs in one driver call, answered in order; atomic on a JOB_DUPLICATE. */
  enqueueMany<const T extends readonly AnyJobDefinition[]>(
    items: {
      readonly [K in keyof T]: EnqueueItem<T[K]>;
    },
  ): Promise<readonly EnqueueResult[]>;
  /** Publishes an event; runs waiting for it (`step.waitForEvent`) resume at once. */
  publish(event: string, payload: Json, options?: PublishOptions): Promise<EventRecord>;
}
