import type { Driver } from '../../contract/driver.js';
import type { EventRecord } from '../../contract/events.js';
import type { ClaimedJob, Fence, Json } from '../../contract/records.js';
import type { StepRecord } from '../../contract/steps.js';
import type { JsonRoot, JsonShaped } from '../../json-shape.js';
import type { EventDefinition } from '../events/define-event.js';
import type { ChildOutcome, InvokeOptions } from '../flows/flow-types.js';
import type { JobContract, ResultValue } from '../jobs/job-types.js';
import type { RunSuspended } from './run-suspended.js';

/** What a step's function is given. */
export interface StepContext {
  /** Aborts when the attempt does (cancel, lost lease, drain) or the step's timeout passes. */
  readonly signal: AbortSignal;
  /** Times this step's function has run in this run, this time included (1 on the first). */
  readonly attempt: number;
}

export interface StepRunOptions {
  /** Ms the function may take; past it the step fails with JOB_TIMEOUT. */
  readonly timeout?: number;
}

export interface WaitForEventOptions<TPayload = Json> {
  /**
   * The event to wait for: its name, or its declaration (`defineEvent`), which types the answer's
   * payload as the event declares it.
   */
  readonly event: string | EventDefinition<unknown, TPayload>;
  /** Only an event whose payload holds each of these top-level fields, deep-equal. */
  readonly match?: Readonly<Record<string, Json>>;
  /** Ms from the wait's first look; then the step answers `null`. */
  readonly timeout: number;
}

/** A step's memoizable answer: JSON, or nothing. */
// biome-ignore lint/suspicious/noConfusingVoidType: a step function that returns nothing infers void.
export type StepOutput = Json | undefined | void;

/**
 * Durable steps of one run (`ctx.step`). Each name is used once per run; a completed step is
 * answered from storage on every later attempt, so its function runs once per run.
 */
export interface StepApi {
  /**
   * Runs `fn` once per run and memoizes its JSON answer (an interface type is fine; a `Date`, a
   * `Map` or a function does not compile). A failure is recorded (status
   * `failed`, attempts) and rethrown, so the job retries and the step runs again.
   */
  run<T extends JsonShaped<T> & JsonRoot>(
    name: string,
    fn: (context: StepContext) => T | Promise<T>,
    options?: StepRunOptions,
  ): Promise<T>;
  /** Parks the run for `durationMs` (no worker is held); returns once that time has come. */
  sleep(name: string, durationMs: number): Promise<void>;
  /** Parks the run until the instant `at` (epoch ms, the driver's clock). */
  sleepUntil(name: string, at: number): Promise<void>;
  /**
   * Answers the first `event` published since the job was created (also one published before
   * the wait began) that matches; parks the run until one is published or `timeout` passes,
   * and then answers `null`.
   */
  waitForEvent<TPayload = Json>(
    name: string,
    options: WaitForEventOptions<TPayload>,
  ): Promise<EventRecord<TPayload> | null>;
  /**
   * Runs `job` as a child of this run and answers its result, typed as its `run` returns it.
   * The child is enqueued once per run (its id derived from the run and `name`, with this job as
   * its `parentId`, in this job's tenant), and the run parks (no worker is held) until the child
   * settles: its worker wakes the parent at once. A child that settled failed, dead or cancelled
   * throws JOB_FAILED (meta: the child's id, state and error), non-retryable: catch it to go on.
   * The payload is checked against the child's schema. `Promise.all` over several invokes runs
   * the children side by side.
   */
  invoke<TInput, TPayload, TResult>(
    name: string,
    job: JobContract<TInput, TPayload, TResult>,
    payload: NoInfer<TInput>,
    options?: InvokeOptions,
  ): Promise<ResultValue<TResult>>;
  /**
   * How the children `client.enqueueFlow` gave this parent settled, in the flow's order, once
   * every one has: parks the run until then. Each child's `onFailure` decides what its failure
   * does (`fail`: JOB_FAILED here at once, non-retryable; `ignore`: left out; `continue`: kept).
   * With `job`, only that job's children, their results typed as its `run` returns them.
   * STEP_INVALID when this job was not enqueued as a flow's parent.
   */
  children(): Promise<readonly ChildOutcome[]>;
  children<TInput, TPayload, TResult>(
    job: JobContract<TInput, TPayload, TResult>,
  ): Promise<readonly ChildOutcome<ResultValue<TResult>>[]>;
}

export interface CreateStepApiInput {
  readonly driver: Driver;
  /** The claimed job; its `runId` keys the steps and `createdAt` bounds event lookups. */
  readonly job: ClaimedJob;
  /** The attempt's fence: every step write presents it. */
  readonly fence: Fence;
  /** The attempt's signal; steps stop when it aborts. */
  readonly signal: AbortSignal;
  /** The timeout of a `step.run` that names none; unset: no step timeout. */
  readonly defaultStepTimeoutMs?: number;
  /**
   * Longest park of an event wait before it looks again, ms (default 5 minutes). Bounds the
   * lateness when an event is published between the wait's look and its suspend landing.
   */
  readonly eventPollMs?: number;
  /** The run's stored steps, read once per attempt; default `driver.steps.list` on first use. */
  readonly steps?: () => Promise<readonly StepRecord[]>;
  /** Told once, at the first suspension a step asks for: it wins over the handler's answer. */
  readonly onSuspend?: (suspension: RunSuspended) => void;
  /** Told when a step write was refused with LEASE_LOST: the worker aborts the attempt. */
  readonly onLeaseLost?: (error: unknown) => void;
}
