import type { Driver, Fence } from '@berth/core';
import { expect } from 'vitest';
import { expectRefusal } from '../../assert.js';
import type { KitCase } from '../../kit.js';
import {
  claimExactly,
  enqueueAndClaim,
  mustGet,
  OTHER_WORKER,
  recordOf,
  without,
} from '../fixtures/index.js';

export const settleSuspendCases: readonly KitCase[] = [
  {
    title:
      'suspend makes the row suspended until `until` with its waitFor, claimedBy and visibleAt removed, attempts kept',
    run: async ({ driver, clock, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver);
      await clock.advance(100);
      expect(await driver.suspend(fence, { until: t0 + 60_000, waitFor: 'order.shipped' })).toBe(
        true,
      );
      expect(await mustGet(driver, job.id)).toStrictEqual({
        ...without(recordOf(job), 'claimedBy', 'visibleAt'),
        state: 'suspended',
        runAt: t0 + 60_000,
        updatedAt: t0 + 100,
        waitFor: 'order.shipped',
      });
    },
  },
  {
    title: 'a suspended row reads ready once its until has come, and nothing else about it moves',
    run: async ({ driver, clock, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver);
      expect(await driver.suspend(fence, { until: t0 + 1_000 })).toBe(true);
      const suspended = await mustGet(driver, job.id);
      expect(suspended.state).toBe('suspended');
      expect(suspended).not.toHaveProperty('waitFor');
      await clock.advance(999);
      expect((await mustGet(driver, job.id)).state).toBe('suspended');
      await clock.advance(1);
      expect(await mustGet(driver, job.id)).toStrictEqual({ ...suspended, state: 'ready' });
    },
  },
  {
    title:
      'suspend with an until at or before now reads ready at once and is claimable as a resume',
    run: async ({ driver, clock, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver);
      await clock.advance(500);
      expect(await driver.suspend(fence, { until: t0 + 200 })).toBe(true);
      expect(await mustGet(driver, job.id)).toMatchObject({ state: 'ready', runAt: t0 + 200 });
      const resumed = await claimExactly(driver, job.queue, job.id);
      expect(resumed).toMatchObject({ resumed: true, attempts: 1, claim: 2 });
    },
  },
  {
    title:
      'extend renews the lease: visibleAt = now + visibilityTimeoutMs, claimedBy kept, and the row is not claimable at the old expiry',
    run: async ({ driver, clock, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver, {}, undefined, 1_000);
      await clock.advance(800);
      expect(await driver.extend(fence, 5_000)).toBe(true);
      expect(await mustGet(driver, job.id)).toStrictEqual({
        ...recordOf(job),
        visibleAt: t0 + 5_800,
        updatedAt: t0 + 800,
      });
      await clock.advance(4_999);
      const claim = { queues: [job.queue], workerId: OTHER_WORKER, visibilityTimeoutMs: 1_000 };
      expect(await driver.claim(claim)).toEqual([]);
      await clock.advance(1);
      expect((await claimExactly(driver, job.queue, job.id, OTHER_WORKER)).claim).toBe(2);
    },
  },
  {
    title: 'extend of a lapsed lease nobody re-claimed lands and takes the row out of reach again',
    run: async ({ driver, clock, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver, {}, undefined, 1_000);
      await clock.advance(3_000);
      expect(await driver.extend(fence, 2_000)).toBe(true);
      expect(await mustGet(driver, job.id)).toMatchObject({
        state: 'running',
        claim: 1,
        visibleAt: t0 + 5_000,
      });
      const claim = { queues: [job.queue], workerId: OTHER_WORKER, visibilityTimeoutMs: 1_000 };
      expect(await driver.claim(claim)).toEqual([]);
      expect(await driver.ack(fence)).toBe(true);
    },
  },
  {
    title:
      'settles refuse a bad fence, error, retryAt, final, deadLetter, until, waitFor or visibilityTimeoutMs with JOB_INVALID naming it',
    run: async ({ driver }) => {
      const { job, fence } = await enqueueAndClaim(driver);
      const before = await mustGet(driver, job.id);
      const error = { message: 'x' };
      const bad = (value: Record<string, unknown>) => value as unknown as Fence;
      const refusals: ReadonlyArray<readonly [(d: Driver) => Promise<unknown>, string]> = [
        [(d) => d.ack(bad({ ...fence, jobId: 'not-a-uuid' })), 'fence.jobId'],
        [(d) => d.ack(bad({ ...fence, workerId: '' })), 'fence.workerId'],
        [(d) => d.ack(bad({ ...fence, claim: -1 })), 'fence.claim'],
        [(d) => d.ack(bad({ ...fence, claim: 1.5 })), 'fence.claim'],
        [(d) => d.ack(fence, { result: (() => 1) as unknown as null }), 'result'],
        [(d) => d.nack(fence, { error: null as unknown as typeof error }), 'error'],
        [(d) => d.nack(fence, { error, retryAt: Number.NaN }), 'retryAt'],
        [(d) => d.nack(fence, { error, final: 'yes' as unknown as boolean }), 'final'],
        [(d) => d.nack(fence, { error, deadLetter: 0 as unknown as boolean }), 'deadLetter'],
        [(d) => d.suspend(fence, { until: Number.POSITIVE_INFINITY }), 'until'],
        [(d) => d.suspend(fence, { until: 0, waitFor: '' }), 'waitFor'],
        [(d) => d.extend(fence, 0), 'visibilityTimeoutMs'],
        [(d) => d.ackMany([{ fence: bad({ ...fence, claim: -1 }) }]), 'fence.claim'],
        [(d) => d.nackMany([{ fence, error, retryAt: -1 }]), 'retryAt'],
      ];
      for (const [call, field] of refusals) {
        await expectRefusal(call(driver), 'JOB_INVALID', { field });
      }
      expect(await mustGet(driver, job.id)).toStrictEqual(before);
    },
  },
];
