import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { KitCase } from '../../kit.js';
import {
  claimExactly,
  enqueueAndClaim,
  fenceOf,
  freshQueue,
  mustGet,
  OTHER_WORKER,
  WORKER,
} from '../fixtures/index.js';

const RENEW_MS = 45_000;

export const settleExtendManyCases: readonly KitCase[] = [
  {
    title:
      'extendMany fences each item alone: only the holder of the current claim of a running job renews, the rest answer false and change nothing',
    run: async ({ driver, clock }) => {
      const holder = await enqueueAndClaim(driver);
      // The lease lapsed and another worker claimed the row: the first claim is stale.
      const reclaimed = await enqueueAndClaim(driver, {}, WORKER, 1_000);
      const other = await enqueueAndClaim(driver);
      const settled = await enqueueAndClaim(driver);
      await clock.advance(1_000);
      await claimExactly(driver, reclaimed.job.queue, reclaimed.job.id, OTHER_WORKER);
      expect(await driver.ack(settled.fence)).toBe(true);
      const untouched = [reclaimed.job.id, other.job.id, settled.job.id];
      const before = await Promise.all(untouched.map((id) => mustGet(driver, id)));
      await clock.advance(500);
      const now = clock.now();
      const answers = await driver.extendMany(
        [
          holder.fence,
          reclaimed.fence,
          { ...other.fence, workerId: OTHER_WORKER },
          settled.fence,
          { jobId: randomUUID(), workerId: WORKER, claim: 1 },
        ],
        RENEW_MS,
      );
      expect(answers).toEqual([true, false, false, false, false]);
      const renewed = await mustGet(driver, holder.job.id);
      expect(renewed.state).toBe('running');
      expect(renewed.visibleAt).toBe(now + RENEW_MS);
      expect(renewed.claimedBy).toBe(WORKER);
      expect(renewed.claim).toBe(holder.fence.claim);
      expect(await Promise.all(untouched.map((id) => mustGet(driver, id)))).toStrictEqual(before);
    },
  },
  {
    title: 'extendMany of an empty batch answers [] and changes nothing',
    run: async ({ driver, clock }) => {
      const { job } = await enqueueAndClaim(driver);
      const before = await mustGet(driver, job.id);
      await clock.advance(10);
      expect(await driver.extendMany([], RENEW_MS)).toEqual([]);
      expect(await mustGet(driver, job.id)).toStrictEqual(before);
    },
  },
  {
    title: 'extendMany answers in input order, not in claim or id order',
    run: async ({ driver, clock }) => {
      const queue = freshQueue();
      for (const name of ['a', 'b', 'c']) await driver.enqueue({ name, queue });
      const jobs = await driver.claim({
        queues: [queue],
        workerId: WORKER,
        visibilityTimeoutMs: 30_000,
        limit: 3,
      });
      expect(jobs).toHaveLength(3);
      const [a, b, c] = jobs.map(fenceOf);
      if (a === undefined || b === undefined || c === undefined) throw new Error('three rows');
      const staleB = { ...b, claim: b.claim + 1 };
      await clock.advance(100);
      const now = clock.now();
      expect(await driver.extendMany([c, staleB, a, { ...c, claim: 0 }], RENEW_MS)).toEqual([
        true,
        false,
        true,
        false,
      ]);
      expect(await driver.extendMany([staleB, b], RENEW_MS)).toEqual([false, true]);
      for (const fence of [a, b, c]) {
        expect((await mustGet(driver, fence.jobId)).visibleAt).toBe(now + RENEW_MS);
      }
    },
  },
  {
    title:
      'extendMany given the same fence twice answers true for both and renews once to now + vt; a stale twin of it answers false',
    run: async ({ driver, clock }) => {
      const { job, fence } = await enqueueAndClaim(driver);
      await clock.advance(100);
      const now = clock.now();
      const stale = { ...fence, workerId: OTHER_WORKER };
      expect(await driver.extendMany([fence, stale, fence], RENEW_MS)).toEqual([true, false, true]);
      const row = await mustGet(driver, job.id);
      expect(row.visibleAt).toBe(now + RENEW_MS);
      expect(row.claimedBy).toBe(WORKER);
      expect(row.attempts).toBe(job.attempts);
    },
  },
  {
    title:
      'extendMany renews a lapsed lease nobody re-claimed, so no other worker can claim the row',
    run: async ({ driver, clock }) => {
      const { job, fence } = await enqueueAndClaim(driver, {}, WORKER, 1_000);
      await clock.advance(1_500);
      expect(await driver.extendMany([fence], RENEW_MS)).toEqual([true]);
      const taken = await driver.claim({
        queues: [job.queue],
        workerId: OTHER_WORKER,
        visibilityTimeoutMs: 30_000,
      });
      expect(taken).toEqual([]);
      expect(await driver.ack(fence)).toBe(true);
    },
  },
];
