import type { Driver } from '../../contract/driver.js';
import type { EventRecord } from '../../contract/events.js';
import type { ClaimedJob, Fence, Json } from '../../contract/records.js';
import type { JsonRoot, JsonShaped } from '../../json-shape.js';
import type { EventDefinition } from '../events/define-event.js';

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
  /** Told when a step write was refused with LEASE_LOST: the worker aborts the attempt. */
  readonly onLeaseLost?: (error: unknown) => void;
}
