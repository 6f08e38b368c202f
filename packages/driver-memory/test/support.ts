import {
  type ClaimedJob,
  createManualClock,
  type Driver,
  type EnqueueRequest,
  type Fence,
  isBerthError,
  type JobRecord,
  type ManualClock,
} from '@berth/core';
import { expect } from 'vitest';
import { createMemoryDriver } from '../src/index.js';

export const T0 = Date.UTC(2026, 0, 1);
export const VT = 30_000;

/** The seams a test may set or clear. */
export interface Seams {
  afterEnqueueConflict?: (() => Promise<void>) | undefined;
  afterRequeueCheck?: (() => Promise<void>) | undefined;
}

export interface Setup {
  readonly driver: Driver;
  readonly clock: ManualClock;
  readonly hooks: Seams;
}

/** A fresh memory driver on a manual clock, with seams a test may set. */
export function setup(): Setup {
  const clock = createManualClock(T0);
  const hooks: {
    afterEnqueueConflict?: () => Promise<void>;
    afterRequeueCheck?: () => Promise<void>;
  } = {};
  const driver = createMemoryDriver({
    clock,
    hooks: {
      afterEnqueueConflict: async () => hooks.afterEnqueueConflict?.(),
      afterRequeueCheck: async () => hooks.afterRequeueCheck?.(),
    },
  });
  return { driver, clock, hooks };
}

export const fenceOf = (job: ClaimedJob): Fence => ({
  jobId: job.id,
  workerId: job.claimedBy,
  claim: job.claim,
});

export async function mustGet(driver: Driver, id: string): Promise<JobRecord> {
  const job = await driver.get(id);
  if (job === undefined) throw new Error(`no job ${id}`);
  return job;
}

/** Claims exactly one row from `queue`. */
export async function claimOne(driver: Driver, queue = 'default', workerId = 'w1', vt = VT) {
  const claimed = await driver.claim({ queues: [queue], workerId, visibilityTimeoutMs: vt });
  const [job] = claimed;
  if (job === undefined || claimed.length !== 1) throw new Error(`expected one job in ${queue}`);
  return job;
}

/** Enqueues into a queue of its own and claims it. */
export async function running(driver: Driver, request: Partial<EnqueueRequest> = {}) {
  const queue = request.queue ?? `q-${Math.random().toString(36).slice(2, 10)}`;
  await driver.enqueue({ name: 'task', ...request, queue });
  const job = await claimOne(driver, queue);
  return { job, fence: fenceOf(job), queue };
}

/** Awaits a refusal of `code` and answers it. */
export async function refusal(
  call: Promise<unknown>,
  code: string,
  meta?: Record<string, unknown>,
) {
  try {
    await call;
  } catch (error) {
    if (!isBerthError(error)) throw error;
    expect(error.code).toBe(code);
    if (meta !== undefined) expect(error.meta).toEqual(meta);
    return error;
  }
  throw new Error(`expected ${code}, but the call answered`);
}
