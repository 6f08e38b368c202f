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

const error = { code: 'E', message: 'failed' } as const;

export const settleManyCases: readonly KitCase[] = [
  {
    title:
      'ackMany answers landed per item in order, mixing stale and valid fences, each item with its own result',
    run: async ({ driver, clock, t0 }) => {
      const queue = freshQueue();
      for (const name of ['a', 'b', 'c', 'd']) await driver.enqueue({ name, queue });
      const claimed = await driver.claim({
        queues: [queue],
        workerId: WORKER,
        visibilityTimeoutMs: 1_000,
        limit: 4,
      });
      const [a, b, c, d] = claimed;
      if (a === undefined || b === undefined || c === undefined || d === undefined) {
        throw new Error('expected four claimed rows');
      }
      await clock.advance(1_000);
      // b's lease lapsed and another worker took it; the others still hold (lapsed, not re-claimed).
      for (const job of [a, c, d]) expect(await driver.extend(fenceOf(job), 10_000)).toBe(true);
      const bAgain = await claimExactly(driver, queue, b.id, OTHER_WORKER);
      const landed = await driver.ackMany([
        { fence: fenceOf(a), result: 'a' },
        { fence: fenceOf(b), result: 'b' },
        { fence: fenceOf(c) },
        { fence: { ...fenceOf(d), workerId: OTHER_WORKER }, result: 'd' },
      ]);
      expect(landed).toEqual([true, false, true, false]);
      expect(await mustGet(driver, a.id)).toMatchObject({
        state: 'completed',
        result: 'a',
        finishedAt: t0 + 1_000,
      });
      expect(await mustGet(driver, b.id)).toMatchObject({
        state: 'running',
        claimedBy: OTHER_WORKER,
        claim: bAgain.claim,
      });
      const cDone = await mustGet(driver, c.id);
      expect(cDone.state).toBe('completed');
      expect(cDone).not.toHaveProperty('result');
      expect(await mustGet(driver, d.id)).toMatchObject({ state: 'running', claimedBy: WORKER });
    },
  },
  {
    title: 'ackMany with the same fence twice lands the first item only',
    run: async ({ driver }) => {
      const { job, fence } = await enqueueAndClaim(driver);
      expect(
        await driver.ackMany([
          { fence, result: 1 },
          { fence, result: 2 },
        ]),
      ).toEqual([true, false]);
      expect(await mustGet(driver, job.id)).toMatchObject({ state: 'completed', result: 1 });
    },
  },
  {
    title:
      "nackMany applies each item's own options in order: retry later, retry now, dead, failed, stale",
    run: async ({ driver, clock, t0 }) => {
      const later = await enqueueAndClaim(driver);
      const now = await enqueueAndClaim(driver);
      const dead = await enqueueAndClaim(driver);
      const failed = await enqueueAndClaim(driver);
      const stale = await enqueueAndClaim(driver);
      expect(await driver.ack(stale.fence)).toBe(true);
      await clock.advance(100);
      const landed = await driver.nackMany([
        { fence: later.fence, error, retryAt: t0 + 5_000 },
        { fence: now.fence, error },
        { fence: dead.fence, error, final: true },
        { fence: failed.fence, error, final: true, deadLetter: false },
        { fence: stale.fence, error },
      ]);
      expect(landed).toEqual([true, true, true, true, false]);
      expect(await mustGet(driver, later.job.id)).toMatchObject({
        state: 'delayed',
        runAt: t0 + 5_000,
        lastError: error,
      });
      expect(await mustGet(driver, now.job.id)).toMatchObject({
        state: 'ready',
        runAt: t0 + 100,
        lastError: error,
      });
      expect(await mustGet(driver, dead.job.id)).toMatchObject({
        state: 'dead',
        finishedAt: t0 + 100,
        lastError: error,
      });
      expect(await mustGet(driver, failed.job.id)).toMatchObject({
        state: 'failed',
        finishedAt: t0 + 100,
      });
      const acked = await mustGet(driver, stale.job.id);
      expect(acked.state).toBe('completed');
      expect(acked).not.toHaveProperty('lastError');
    },
  },
  {
    title: 'a nackMany item on the final attempt settles dead, as nack would',
    run: async ({ driver, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver, { maxAttempts: 1 });
      expect(await driver.nackMany([{ fence, error, retryAt: t0 + 1_000 }])).toEqual([true]);
      expect(await mustGet(driver, job.id)).toMatchObject({ state: 'dead', finishedAt: t0 });
    },
  },
  {
    title: 'ackMany and nackMany of no items answer []',
    run: async ({ driver }) => {
      const { job, fence } = await enqueueAndClaim(driver);
      expect(await driver.ackMany([])).toEqual([]);
      expect(await driver.nackMany([])).toEqual([]);
      expect(await mustGet(driver, job.id)).toMatchObject({ state: 'running', claim: fence.claim });
    },
  },
];
