import { expect } from 'vitest';
import type { KitCase } from '../../kit.js';
import {
  claimExactly,
  enqueueAndClaim,
  fenceOf,
  mustGet,
  OTHER_WORKER,
  recordOf,
  WORKER,
} from '../fixtures/index.js';

/** Rows that come back to a claim: lapsed leases, retries, resumed suspensions. */
export const claimResumeCases: readonly KitCase[] = [
  {
    title: 'a running row whose lease has not lapsed is not claimable',
    run: async ({ driver, clock }) => {
      const { job } = await enqueueAndClaim(driver, {}, WORKER, 1_000);
      await clock.advance(999);
      expect(
        await driver.claim({
          queues: [job.queue],
          workerId: OTHER_WORKER,
          visibilityTimeoutMs: 1_000,
        }),
      ).toEqual([]);
      expect(await mustGet(driver, job.id)).toStrictEqual(recordOf(job));
    },
  },
  {
    title:
      'a running row whose lease lapsed is claimed again: claim token grows, attempts + 1, new claimedBy and visibleAt, and the old fence lands nothing',
    run: async ({ driver, clock, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver, { maxAttempts: 3 }, WORKER, 1_000);
      await clock.advance(1_000);
      const again = await claimExactly(driver, job.queue, job.id, OTHER_WORKER, 2_000);
      expect(again).toStrictEqual({
        ...job,
        attempts: 2,
        claim: 2,
        claimedBy: OTHER_WORKER,
        visibleAt: t0 + 3_000,
        updatedAt: t0 + 1_000,
        resumed: false,
      });
      expect(await driver.ack(fence)).toBe(false);
      expect(await mustGet(driver, job.id)).toStrictEqual(recordOf(again));
      expect(await driver.ack(fenceOf(again))).toBe(true);
    },
  },
  {
    title:
      'the same worker re-claiming a lapsed lease gets a new claim token; its old token lands nothing',
    run: async ({ driver, clock }) => {
      const { job, fence } = await enqueueAndClaim(driver, {}, WORKER, 1_000);
      await clock.advance(1_000);
      const again = await claimExactly(driver, job.queue, job.id, WORKER, 1_000);
      expect(again.claim).toBe(job.claim + 1);
      expect(await driver.ack(fence)).toBe(false);
      expect((await mustGet(driver, job.id)).state).toBe('running');
      expect(await driver.ack(fenceOf(again))).toBe(true);
    },
  },
  {
    title: 'every claim counts an attempt: a row nacked for a retry is claimed with attempts + 1',
    run: async ({ driver, clock, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver, { maxAttempts: 5 });
      expect(job.attempts).toBe(1);
      expect(await driver.nack(fence, { error: { message: 'try again' }, retryAt: t0 + 500 })).toBe(
        true,
      );
      expect(
        await driver.claim({ queues: [job.queue], workerId: WORKER, visibilityTimeoutMs: 1_000 }),
      ).toEqual([]);
      await clock.advance(500);
      const second = await claimExactly(driver, job.queue, job.id);
      expect(second).toMatchObject({ attempts: 2, claim: 2, resumed: false });
      expect(await driver.nack(fenceOf(second), { error: { message: 'again' } })).toBe(true);
      const third = await claimExactly(driver, job.queue, job.id);
      expect(third).toMatchObject({ attempts: 3, claim: 3, resumed: false });
    },
  },
  {
    title:
      'a suspended run is not claimable before its until; once due it is claimed as a resume: attempts kept, claim + 1, resumed true',
    run: async ({ driver, clock, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver, { maxAttempts: 1 });
      expect(job.resumed).toBe(false);
      expect(await driver.suspend(fence, { until: t0 + 5_000 })).toBe(true);
      await clock.advance(4_999);
      expect(
        await driver.claim({ queues: [job.queue], workerId: WORKER, visibilityTimeoutMs: 1_000 }),
      ).toEqual([]);
      await clock.advance(1);
      const resumed = await claimExactly(driver, job.queue, job.id, OTHER_WORKER, 1_000);
      expect(resumed).toStrictEqual({
        ...job,
        attempts: 1,
        claim: 2,
        claimedBy: OTHER_WORKER,
        runAt: t0 + 5_000,
        visibleAt: t0 + 6_000,
        updatedAt: t0 + 5_000,
        resumed: true,
      });
    },
  },
  {
    title: 'claiming a resumed run removes its waitFor',
    run: async ({ driver, clock, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver);
      expect(await driver.suspend(fence, { until: t0 + 1_000, waitFor: 'invoice.paid' })).toBe(
        true,
      );
      expect((await mustGet(driver, job.id)).waitFor).toBe('invoice.paid');
      await clock.advance(1_000);
      const resumed = await claimExactly(driver, job.queue, job.id);
      expect(resumed.resumed).toBe(true);
      expect(resumed).not.toHaveProperty('waitFor');
      expect(await mustGet(driver, job.id)).not.toHaveProperty('waitFor');
    },
  },
  {
    title:
      'a resumed run whose lease then lapses is claimed again with attempts + 1: only a suspended row resumes',
    run: async ({ driver, clock, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver, {}, WORKER, 1_000);
      expect(await driver.suspend(fence, { until: t0 })).toBe(true);
      const resumed = await claimExactly(driver, job.queue, job.id, WORKER, 1_000);
      expect(resumed).toMatchObject({ attempts: 1, claim: 2, resumed: true });
      await clock.advance(1_000);
      const lapsed = await claimExactly(driver, job.queue, job.id, OTHER_WORKER, 1_000);
      expect(lapsed).toMatchObject({ attempts: 2, claim: 3, resumed: false });
    },
  },
];
