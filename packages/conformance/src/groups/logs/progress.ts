import { randomUUID } from 'node:crypto';
import { type Json, MAX_PAYLOAD_DEPTH, MAX_PROGRESS_BYTES } from '@berth/core';
import { expect } from 'vitest';
import { expectRefusal } from '../../assert.js';
import type { KitCase, KitGroup } from '../../kit.js';
import {
  claimExactly,
  enqueueAndClaim,
  fenceOf,
  listAll,
  mustGet,
  OTHER_WORKER,
  WORKER,
} from '../fixtures/index.js';
import { staleFences } from '../settle/settle-fence.js';
import { progressWorkerCases } from './progress-worker.js';

/** Every JSON shape a progress value may take, each answered as given. */
const shapes: readonly Json[] = [
  { done: 3, of: 10, stage: 'resize', files: ['a.png', 'b.png'], nested: { ok: true } },
  [1, 'two', { three: 3 }, null],
  'halfway',
  0.5,
  0,
  false,
  null,
  {},
];

/** A value nested `depth` arrays deep. */
const nestedArrays = (depth: number): Json => {
  let value: Json = 1;
  for (let level = 0; level < depth; level += 1) value = [value];
  return value;
};

const driverCases: readonly KitCase[] = [
  {
    title:
      'progress by the lease holder lands: get and list show it, updatedAt = now, and state, claimedBy, visibleAt, attempts and claim stay',
    run: async ({ driver, clock, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver);
      const before = await mustGet(driver, job.id);
      expect(before.progress).toBeUndefined();
      await clock.advance(250);
      expect(await driver.progress(fence, { done: 1, of: 4 })).toBe(true);
      const after = await mustGet(driver, job.id);
      expect(after).toStrictEqual({ ...before, progress: { done: 1, of: 4 }, updatedAt: t0 + 250 });
      const listed = (await listAll(driver, { queue: job.queue })).find((row) => row.id === job.id);
      expect(listed?.progress).toStrictEqual({ done: 1, of: 4 });
    },
  },
  {
    title:
      'progress neither renews nor ends the lease: the row is claimable at its old expiry, and the holder still settles',
    run: async ({ driver, clock }) => {
      const { job, fence } = await enqueueAndClaim(driver, {}, WORKER, 1_000);
      await clock.advance(600);
      expect(await driver.progress(fence, 'still going')).toBe(true);
      expect(
        await driver.claim({
          queues: [job.queue],
          workerId: OTHER_WORKER,
          visibilityTimeoutMs: 1_000,
        }),
      ).toEqual([]);
      await clock.advance(400);
      const again = await claimExactly(driver, job.queue, job.id, OTHER_WORKER);
      expect(again.progress).toBe('still going');
      expect(await driver.progress(fence, 'stale')).toBe(false);
      expect(await driver.ack(fenceOf(again))).toBe(true);
    },
  },
  {
    title: 'progress of a lapsed lease nobody re-claimed still lands, as the settles do',
    run: async ({ driver, clock }) => {
      const { job, fence } = await enqueueAndClaim(driver, {}, WORKER, 1_000);
      await clock.advance(5_000);
      expect(await driver.progress(fence, { late: true })).toBe(true);
      expect((await mustGet(driver, job.id)).progress).toStrictEqual({ late: true });
    },
  },
  {
    title:
      'a later progress replaces the earlier, and every JSON shape (object, array, string, number, false, null) is answered as given',
    run: async ({ driver }) => {
      const { job, fence } = await enqueueAndClaim(driver);
      for (const value of shapes) {
        expect(await driver.progress(fence, value)).toBe(true);
        expect((await mustGet(driver, job.id)).progress).toStrictEqual(value);
      }
      const [listed] = await listAll(driver, { queue: job.queue });
      expect(listed?.progress).toStrictEqual({});
    },
  },
  ...staleFences.map(
    ({ what, make }): KitCase => ({
      title: `progress with ${what} answers false and changes nothing`,
      run: async ({ driver, clock, t0 }) => {
        const { jobId, stale, holder } = await make(driver, clock, t0);
        const before = await driver.get(jobId);
        expect(await driver.progress(stale, { stale: true })).toBe(false);
        expect(await driver.get(jobId)).toStrictEqual(before);
        if (holder !== undefined) expect(await driver.progress(holder, 'held')).toBe(true);
      },
    }),
  ),
  {
    title: 'progress of a job id nobody queued answers false',
    run: async ({ driver }) => {
      const jobId = randomUUID();
      expect(await driver.progress({ jobId, workerId: WORKER, claim: 1 }, 1)).toBe(false);
      expect(await driver.get(jobId)).toBeUndefined();
    },
  },
  {
    title:
      'the last progress is kept through a retry, the next claim and a suspend, until the next attempt writes its own',
    run: async ({ driver, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver, { maxAttempts: 3 });
      expect(await driver.progress(fence, { attempt: 1, done: 7 })).toBe(true);
      expect(await driver.nack(fence, { error: { message: 'retry' } })).toBe(true);
      expect(await mustGet(driver, job.id)).toMatchObject({
        state: 'ready',
        progress: { attempt: 1, done: 7 },
      });
      const second = await claimExactly(driver, job.queue, job.id);
      expect(second.progress).toStrictEqual({ attempt: 1, done: 7 });
      expect(await driver.suspend(fenceOf(second), { until: t0 })).toBe(true);
      expect((await mustGet(driver, job.id)).progress).toStrictEqual({ attempt: 1, done: 7 });
      const resumed = await claimExactly(driver, job.queue, job.id);
      expect(await driver.progress(fenceOf(resumed), { attempt: 2, done: 1 })).toBe(true);
      expect((await mustGet(driver, job.id)).progress).toStrictEqual({ attempt: 2, done: 1 });
    },
  },
  {
    title:
      'the last progress is kept on the settled record (completed, dead, cancelled) and through a requeue',
    run: async ({ driver }) => {
      const completed = await enqueueAndClaim(driver);
      expect(await driver.progress(completed.fence, 100)).toBe(true);
      expect(await driver.ack(completed.fence, { result: 'ok' })).toBe(true);
      expect(await mustGet(driver, completed.job.id)).toMatchObject({
        state: 'completed',
        progress: 100,
      });

      const dead = await enqueueAndClaim(driver);
      expect(await driver.progress(dead.fence, 40)).toBe(true);
      expect(await driver.nack(dead.fence, { error: { message: 'x' }, final: true })).toBe(true);
      expect(await mustGet(driver, dead.job.id)).toMatchObject({ state: 'dead', progress: 40 });
      expect(await driver.requeue(dead.job.id)).toMatchObject({ state: 'ready', progress: 40 });

      const cancelled = await enqueueAndClaim(driver);
      expect(await driver.progress(cancelled.fence, 'midway')).toBe(true);
      expect(await driver.cancel(cancelled.job.id)).toMatchObject({
        state: 'cancelled',
        progress: 'midway',
      });
    },
  },
  {
    title:
      'progress that is not JSON, nested deeper than MAX_PAYLOAD_DEPTH or over MAX_PROGRESS_BYTES is refused JOB_INVALID (field progress) and changes nothing',
    run: async ({ driver }) => {
      const { job, fence } = await enqueueAndClaim(driver);
      expect(await driver.progress(fence, 'kept')).toBe(true);
      const before = await mustGet(driver, job.id);
      const cyclic: Record<string, unknown> = {};
      cyclic.self = cyclic;
      const refused: readonly unknown[] = [
        undefined,
        () => 1,
        new Date(0),
        10n,
        Number.NaN,
        cyclic,
        nestedArrays(MAX_PAYLOAD_DEPTH + 1),
        'x'.repeat(MAX_PROGRESS_BYTES),
      ];
      for (const value of refused) {
        await expectRefusal(driver.progress(fence, value as Json), 'JOB_INVALID', {
          field: 'progress',
        });
      }
      expect(await mustGet(driver, job.id)).toStrictEqual(before);
      // The bound itself is fine: the JSON text of a string holds its two quotes.
      expect(await driver.progress(fence, 'y'.repeat(MAX_PROGRESS_BYTES - 2))).toBe(true);
      expect(await driver.progress(fence, nestedArrays(MAX_PAYLOAD_DEPTH))).toBe(true);
    },
  },
];

/**
 * `progress`: the fenced write of a job's progress (`Driver.progress`, `ctx.progress`). It lands
 * for the holder only, is shown by get and list, and is kept until the next write.
 */
export const progressGroup: KitGroup = {
  name: 'progress',
  cases: [...driverCases, ...progressWorkerCases],
};
