import { randomUUID } from 'node:crypto';
import type {
  ClaimedJob,
  Driver,
  EnqueueRequest,
  Fence,
  JobRecord,
  ListRequest,
  StepRecord,
} from '@berth/core';
import { expect } from 'vitest';

/** Shared by the enqueue, claim, settle and steps groups. */

export const WORKER = 'worker-a';
export const OTHER_WORKER = 'worker-b';
export const LEASE_MS = 30_000;

/**
 * An id the driver allocated: an RFC 9562 uuid in lower case, random (version 4) or random after
 * the instant it was made (version 7, which keeps a batch's ids together in a btree).
 */
const FRESH_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[47][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export function expectFreshUuid(value: unknown): void {
  expect(value).toMatch(FRESH_UUID);
}

/** A queue name no other call of the case uses, so a claim can only take the rows meant for it. */
export const freshQueue = (): string => `q-${randomUUID().slice(0, 8)}`;

export const fenceOf = (job: ClaimedJob): Fence => ({
  jobId: job.id,
  workerId: job.claimedBy,
  claim: job.claim,
});

/** The record of `id`, failing the case when the driver has none. */
export async function mustGet(driver: Driver, id: string): Promise<JobRecord> {
  const job = await driver.get(id);
  if (job === undefined) throw new Error(`expected job ${id} to exist`);
  return job;
}

/** A copy of `value` without `keys`: what a record reads once a change removed those fields. */
export function without<T extends object, K extends keyof T>(value: T, ...keys: K[]): Omit<T, K> {
  const dropped = new Set<PropertyKey>(keys);
  return Object.fromEntries(Object.entries(value).filter(([key]) => !dropped.has(key))) as Omit<
    T,
    K
  >;
}

/** The record a claim answer describes, as `get` reports it. */
export const recordOf = (job: ClaimedJob): JobRecord => without(job, 'resumed');

/** Claims from `queue` and asserts exactly the row `id` came out. */
export async function claimExactly(
  driver: Driver,
  queue: string,
  id: string,
  workerId = WORKER,
  visibilityTimeoutMs = LEASE_MS,
): Promise<ClaimedJob> {
  const claimed = await driver.claim({ queues: [queue], workerId, visibilityTimeoutMs });
  expect(claimed.map((job) => job.id)).toEqual([id]);
  const [job] = claimed;
  if (job === undefined) throw new Error(`expected to claim job ${id}`);
  return job;
}

/** Enqueues one job (in a queue of its own unless `request.queue` names one) and claims it. */
export async function enqueueAndClaim(
  driver: Driver,
  request: Partial<EnqueueRequest> = {},
  workerId = WORKER,
  visibilityTimeoutMs = LEASE_MS,
): Promise<{ job: ClaimedJob; fence: Fence }> {
  const queue = request.queue ?? freshQueue();
  const { id } = await driver.enqueue({ name: 'task', ...request, queue });
  const job = await claimExactly(driver, queue, id, workerId, visibilityTimeoutMs);
  return { job, fence: fenceOf(job) };
}

export type SettledState = 'completed' | 'failed' | 'dead' | 'cancelled';

/** Takes the LIVE, due row `id` to `state` the way a worker or an operator would. */
export async function settleTo(driver: Driver, id: string, state: SettledState): Promise<void> {
  if (state === 'cancelled') {
    await driver.cancel(id);
    return;
  }
  const { queue } = await mustGet(driver, id);
  const fence = fenceOf(await claimExactly(driver, queue, id, 'settler'));
  const landed =
    state === 'completed'
      ? await driver.ack(fence)
      : await driver.nack(fence, {
          error: { message: 'given up' },
          final: true,
          deadLetter: state === 'dead',
        });
  expect(landed).toBe(true);
  expect((await mustGet(driver, id)).state).toBe(state);
}

/** Every row matching `filter` (one page is enough for a case). */
export async function listAll(driver: Driver, filter: ListRequest = {}): Promise<JobRecord[]> {
  return [...(await driver.list({ ...filter, limit: 500 })).jobs];
}

/** A completed step of `runId` written at `at`. */
export function stepRecord(
  runId: string,
  name: string,
  at: number,
  extra: Partial<StepRecord> = {},
): StepRecord {
  return {
    runId,
    name,
    status: 'completed',
    output: { step: name },
    attempts: 1,
    startedAt: at,
    updatedAt: at,
    ...extra,
  };
}

/** `items[index]`, failing the case when there is none. */
export function nth<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error(`expected an item at index ${index} of ${items.length}`);
  return item;
}
