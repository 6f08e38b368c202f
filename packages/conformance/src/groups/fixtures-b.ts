import type {
  ClaimedJob,
  Driver,
  EnqueueRequest,
  Fence,
  JobError,
  JobRecord,
  JobState,
  ListPage,
  ListRequest,
  StepRecord,
} from '@berth/core';
import { expect } from 'vitest';

/**
 * Shared set-up for the operator, requeue, list, stats, tenancy, events, leases and wake groups:
 * put a job into any stored state through the public calls only, so every driver is set up alike.
 */

/** The lease the fixtures claim with: long enough that no case lapses one by accident. */
export const VT = 60_000;
export const WORKER = 'kit-worker';
/** How far ahead "not yet due" is. */
export const LATER = 3_600_000;
export const JOB_ERROR: JobError = { code: 'APP_FAILED', message: 'the handler threw' };

export type JobInput = Omit<EnqueueRequest, 'name'> & { readonly name?: string };

export async function enqueueJob(driver: Driver, request: JobInput = {}): Promise<string> {
  const { id } = await driver.enqueue({ name: 'kit.job', ...request });
  return id;
}

/** Claims one row of `queue` and asserts it is `id`: cases keep their queues unambiguous. */
export async function claimJob(driver: Driver, id: string, queue: string): Promise<ClaimedJob> {
  const claimed = await driver.claim({
    queues: [queue],
    workerId: WORKER,
    visibilityTimeoutMs: VT,
  });
  expect(claimed.map((job) => job.id)).toEqual([id]);
  const [job] = claimed;
  if (job === undefined) throw new Error(`claim of queue ${queue} answered no row`);
  return job;
}

export const fenceOf = (job: ClaimedJob): Fence => ({
  jobId: job.id,
  workerId: job.claimedBy,
  claim: job.claim,
});

export function stepOf(runId: string, name: string, at: number, output: number = 1): StepRecord {
  return { runId, name, status: 'completed', output, attempts: 1, startedAt: at, updatedAt: at };
}

export interface MadeJob {
  readonly id: string;
  readonly runId: string;
  readonly queue: string;
  /** The claim's fence when the job was claimed on the way to its state. */
  readonly fence: Fence | undefined;
}

export interface MakeOptions {
  /** Step names written (in order) while the job is claimed; needs a state reached by a claim. */
  readonly steps?: readonly string[];
  /** The event a `suspended` job waits for. */
  readonly waitFor?: string;
}

const CLAIMED_ON_THE_WAY = new Set<JobState>([
  'running',
  'suspended',
  'completed',
  'failed',
  'dead',
]);

/**
 * A job whose STORED state is `state`: `delayed` and `suspended` are not due for LATER ms. The
 * queue defaults to `q-<state>`; a claim on the way asserts it takes exactly this job.
 */
export async function jobIn(
  driver: Driver,
  state: JobState,
  request: JobInput = {},
  options: MakeOptions = {},
): Promise<MadeJob> {
  const now = driver.clock.now();
  const queue = request.queue ?? `q-${state}`;
  const runAt = state === 'delayed' ? (request.runAt ?? now + LATER) : request.runAt;
  const { id, runId } = await driver.enqueue({
    name: 'kit.job',
    ...request,
    queue,
    ...(runAt === undefined ? {} : { runAt }),
  });
  if (state === 'cancelled') await driver.cancel(id);
  if (!CLAIMED_ON_THE_WAY.has(state)) return { id, runId, queue, fence: undefined };
  const fence = fenceOf(await claimJob(driver, id, queue));
  for (const name of options.steps ?? []) await driver.steps.put(stepOf(runId, name, now), fence);
  const landed = await settleInto(driver, state, fence, options);
  expect(landed).toBe(true);
  return { id, runId, queue, fence };
}

async function settleInto(
  driver: Driver,
  state: JobState,
  fence: Fence,
  options: MakeOptions,
): Promise<boolean> {
  const until = driver.clock.now() + LATER;
  switch (state) {
    case 'suspended':
      return driver.suspend(fence, {
        until,
        ...(options.waitFor === undefined ? {} : { waitFor: options.waitFor }),
      });
    case 'completed':
      return driver.ack(fence, { result: { done: true } });
    case 'failed':
      return driver.nack(fence, { error: JOB_ERROR, final: true, deadLetter: false });
    case 'dead':
      return driver.nack(fence, { error: JOB_ERROR, final: true });
    default:
      return true;
  }
}

export async function mustGet(driver: Driver, id: string): Promise<JobRecord> {
  const job = await driver.get(id);
  expect(job, `job ${id} should exist`).toBeDefined();
  if (job === undefined) throw new Error(`job ${id} is missing`);
  return job;
}

export function expectAbsent(record: object, ...fields: readonly string[]): void {
  for (const field of fields) expect(record, `${field} should be absent`).not.toHaveProperty(field);
}

export async function stepNames(driver: Driver, runId: string): Promise<string[]> {
  return (await driver.steps.list(runId)).map((step) => step.name);
}

export const ids = (jobs: readonly JobRecord[]): string[] => jobs.map((job) => job.id);

/** Every page from the first, following `next`. */
export async function walkForward(driver: Driver, request: ListRequest): Promise<ListPage[]> {
  const pages = [await driver.list(request)];
  for (let page = pages[0]; page?.next !== undefined; ) {
    page = await driver.list({ ...request, after: page.next });
    pages.push(page);
    if (pages.length > 1_000) throw new Error('list never ended walking forward');
  }
  return pages;
}

/** Every page before `from`, following `prev`, nearest first. */
export async function walkBack(
  driver: Driver,
  request: ListRequest,
  from: ListPage,
): Promise<ListPage[]> {
  const pages: ListPage[] = [];
  for (let at = from.prev; at !== undefined; ) {
    const page = await driver.list({ ...request, before: at });
    pages.push(page);
    at = page.prev;
    if (pages.length > 1_000) throw new Error('list never ended walking back');
  }
  return pages;
}

/** Real time, for wake delivery that may be async. */
export const pause = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `done` every 10 ms of real time for up to `withinMs`; answers whether it came true. */
export async function eventually(done: () => boolean, withinMs = 2_000): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (!done()) {
    if (Date.now() >= deadline) return false;
    await pause(10);
  }
  return true;
}

/** A page's cursor that must be there. */
export function cursor(value: string | undefined): string {
  expect(typeof value, 'the page should carry this cursor').toBe('string');
  if (value === undefined) throw new Error('the page has no such cursor');
  return value;
}
