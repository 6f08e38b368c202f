import type { ClaimedJob, Driver, Fence, JobRecord, Json } from '../../src/index.js';
import { createStepApi, isRunSuspended, type StepApi } from '../../src/index.js';

export const QUEUE = 'steps';
export const WORKER = 'worker-a';
export const LEASE_MS = 30_000;

export interface AttemptContext {
  readonly step: StepApi;
  readonly job: ClaimedJob;
  readonly signal: AbortSignal;
}

export type Handler = (context: AttemptContext) => Promise<Json | undefined>;

export type AttemptOutcome =
  | { readonly kind: 'none' }
  | { readonly kind: 'completed'; readonly job: ClaimedJob; readonly result: Json | undefined }
  | {
      readonly kind: 'suspended';
      readonly job: ClaimedJob;
      readonly until: number;
      readonly waitFor?: string;
    }
  | { readonly kind: 'failed'; readonly job: ClaimedJob; readonly error: unknown };

export const fenceOf = (job: ClaimedJob): Fence => ({
  jobId: job.id,
  workerId: job.claimedBy,
  claim: job.claim,
});

/**
 * One attempt the way a worker runs it: claim one job, run the handler with a step API, then
 * ack, suspend (a step unwound the handler) or nack. A stand-in for the worker, so these tests
 * exercise the steps alone.
 */
export async function runAttempt(
  driver: Driver,
  handler: Handler,
  options: {
    workerId?: string;
    visibilityTimeoutMs?: number;
    defaultStepTimeoutMs?: number;
    eventPollMs?: number;
    controller?: AbortController;
  } = {},
): Promise<AttemptOutcome> {
  const [job] = await driver.claim({
    queues: [QUEUE],
    workerId: options.workerId ?? WORKER,
    visibilityTimeoutMs: options.visibilityTimeoutMs ?? LEASE_MS,
  });
  if (job === undefined) return { kind: 'none' };
  return runClaimed(driver, job, handler, options);
}

export async function runClaimed(
  driver: Driver,
  job: ClaimedJob,
  handler: Handler,
  options: {
    defaultStepTimeoutMs?: number;
    eventPollMs?: number;
    controller?: AbortController;
  } = {},
): Promise<AttemptOutcome> {
  const controller = options.controller ?? new AbortController();
  const fence = fenceOf(job);
  const step = createStepApi({
    driver,
    job,
    fence,
    signal: controller.signal,
    onLeaseLost: (error) => controller.abort(error),
    ...(options.defaultStepTimeoutMs === undefined
      ? {}
      : { defaultStepTimeoutMs: options.defaultStepTimeoutMs }),
    ...(options.eventPollMs === undefined ? {} : { eventPollMs: options.eventPollMs }),
  });
  try {
    const result = await handler({ step, job, signal: controller.signal });
    await driver.ack(fence, result === undefined ? {} : { result });
    return { kind: 'completed', job, result };
  } catch (error) {
    if (isRunSuspended(error)) {
      await driver.suspend(fence, error.toSuspendOptions());
      return {
        kind: 'suspended',
        job,
        until: error.until,
        ...(error.waitFor === undefined ? {} : { waitFor: error.waitFor }),
      };
    }
    await driver.nack(fence, { error: { message: String(error) } });
    return { kind: 'failed', job, error };
  }
}

/** The record of `id`, failing the test when the driver has none. */
export async function mustGet(driver: Driver, id: string): Promise<JobRecord> {
  const job = await driver.get(id);
  if (job === undefined) throw new Error(`expected job ${id} to exist`);
  return job;
}
