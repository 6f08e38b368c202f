import { expect } from 'vitest';
import { expectRefusal } from '../../assert.js';
import type { KitCase } from '../../kit.js';
import { enqueueAndClaim, fenceOf, mustGet, recordOf, without } from '../fixtures/index.js';

const skipped = { code: 'JOB_SKIPPED', message: 'its concurrency key was busy' } as const;

/** A nack with `cancel`: the worker settles a job that must not run as `cancelled`, fenced. */
export const settleCancelCases: readonly KitCase[] = [
  {
    title:
      'nack with cancel settles the row cancelled whatever attempts remain: lastError kept, finishedAt = now, claimedBy and visibleAt removed, attempts unchanged',
    run: async ({ driver, clock, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver, { maxAttempts: 5 });
      await clock.advance(100);
      expect(await driver.nack(fence, { error: skipped, cancel: true })).toBe(true);
      expect(await mustGet(driver, job.id)).toStrictEqual({
        ...without(recordOf(job), 'claimedBy', 'visibleAt'),
        state: 'cancelled',
        lastError: skipped,
        finishedAt: t0 + 100,
        updatedAt: t0 + 100,
      });
    },
  },
  {
    title:
      "cancel wins over retryAt, final and deadLetter, and the attempt's history record is cancelled with the error",
    run: async ({ driver, clock, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver, { maxAttempts: 3 });
      const options = {
        error: skipped,
        cancel: true,
        retryAt: t0 + 60_000,
        final: false,
        deadLetter: false,
      };
      await clock.advance(50);
      expect(await driver.nack(fence, options)).toBe(true);
      expect((await mustGet(driver, job.id)).state).toBe('cancelled');
      const history = await driver.attempts.list(job.id);
      expect(history?.records).toEqual([
        {
          seq: 1,
          attempt: 1,
          claim: job.claim,
          workerId: job.claimedBy,
          claimedAt: t0,
          endedAt: t0 + 50,
          outcome: 'cancelled',
          error: skipped,
        },
      ]);
    },
  },
  {
    title:
      'nack with cancel is fenced: a stale fence, or a second one, lands nothing; the cancelled row can be requeued',
    run: async ({ driver }) => {
      const { job, fence } = await enqueueAndClaim(driver);
      expect(
        await driver.nack({ ...fence, claim: fence.claim + 1 }, { error: skipped, cancel: true }),
      ).toBe(false);
      expect((await mustGet(driver, job.id)).state).toBe('running');
      expect(await driver.nack(fence, { error: skipped, cancel: true })).toBe(true);
      expect(await driver.nack(fence, { error: skipped, cancel: true })).toBe(false);
      expect(await driver.ack(fence)).toBe(false);
      expect((await driver.requeue(job.id)).state).toBe('ready');
    },
  },
  {
    title:
      'nackMany settles each item as nack does: a cancel item cancelled, the others retried or given up',
    run: async ({ driver }) => {
      const a = await enqueueAndClaim(driver, { maxAttempts: 3 });
      const b = await enqueueAndClaim(driver, { maxAttempts: 3 });
      const c = await enqueueAndClaim(driver, { maxAttempts: 1 });
      const error = { message: 'no' };
      expect(
        await driver.nackMany([
          { fence: fenceOf(a.job), error: skipped, cancel: true },
          { fence: fenceOf(b.job), error },
          { fence: fenceOf(c.job), error },
        ]),
      ).toEqual([true, true, true]);
      expect((await mustGet(driver, a.job.id)).state).toBe('cancelled');
      expect((await mustGet(driver, b.job.id)).state).toBe('ready');
      expect((await mustGet(driver, c.job.id)).state).toBe('dead');
    },
  },
  {
    title: 'a cancel that is not a boolean is JOB_INVALID naming cancel, and the row stays running',
    run: async ({ driver }) => {
      const { job, fence } = await enqueueAndClaim(driver);
      await expectRefusal(
        driver.nack(fence, { error: skipped, cancel: 'yes' } as never),
        'JOB_INVALID',
        {
          field: 'cancel',
        },
      );
      expect((await mustGet(driver, job.id)).state).toBe('running');
    },
  },
];
