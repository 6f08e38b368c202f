import { MAX_ERROR_MESSAGE_LENGTH, MAX_ERROR_STACK_LENGTH } from '@berth/core';
import { expect } from 'vitest';
import type { KitCase, KitGroup } from '../../kit.js';
import {
  claimExactly,
  enqueueAndClaim,
  fenceOf,
  mustGet,
  OTHER_WORKER,
  recordOf,
  without,
} from '../fixtures/index.js';
import { settleCancelCases } from './settle-cancel.js';
import { settleExtendManyCases } from './settle-extend-many.js';
import { settleFenceCases } from './settle-fence.js';
import { settleManyCases } from './settle-many.js';
import { settleSuspendCases } from './settle-suspend.js';

const boom = { code: 'BOOM', message: 'it broke', stack: 'Error: it broke\n    at task' } as const;

const ackCases: readonly KitCase[] = [
  {
    title:
      'ack lands: the row is completed with its result and finishedAt = now, claimedBy and visibleAt removed',
    run: async ({ driver, clock, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver);
      await clock.advance(250);
      expect(await driver.ack(fence, { result: { sent: 3, to: ['a', 'b'] } })).toBe(true);
      expect(await mustGet(driver, job.id)).toStrictEqual({
        ...without(recordOf(job), 'claimedBy', 'visibleAt'),
        state: 'completed',
        result: { sent: 3, to: ['a', 'b'] },
        finishedAt: t0 + 250,
        updatedAt: t0 + 250,
      });
    },
  },
  {
    title: 'ack without a result stores no result',
    run: async ({ driver, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver);
      expect(await driver.ack(fence)).toBe(true);
      const done = await mustGet(driver, job.id);
      expect(done).toMatchObject({ state: 'completed', finishedAt: t0 });
      expect(done).not.toHaveProperty('result');
    },
  },
  {
    title: 'ack of a lapsed lease nobody re-claimed still lands: the fence holds until a new claim',
    run: async ({ driver, clock, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver, {}, undefined, 1_000);
      await clock.advance(5_000);
      expect(await driver.ack(fence, { result: 'late' })).toBe(true);
      expect(await mustGet(driver, job.id)).toMatchObject({
        state: 'completed',
        result: 'late',
        finishedAt: t0 + 5_000,
      });
    },
  },
  {
    title: "ack keeps the lastError an earlier attempt's nack left",
    run: async ({ driver }) => {
      const { job, fence } = await enqueueAndClaim(driver);
      expect(await driver.nack(fence, { error: boom })).toBe(true);
      const again = await claimExactly(driver, job.queue, job.id);
      expect(await driver.ack(fenceOf(again))).toBe(true);
      expect(await mustGet(driver, job.id)).toMatchObject({ state: 'completed', lastError: boom });
    },
  },
];

const nackCases: readonly KitCase[] = [
  {
    title:
      'nack with attempts left and a future retryAt makes the row delayed at retryAt, lastError stored, lease removed',
    run: async ({ driver, clock, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver);
      await clock.advance(100);
      expect(await driver.nack(fence, { error: boom, retryAt: t0 + 10_000 })).toBe(true);
      expect(await mustGet(driver, job.id)).toStrictEqual({
        ...without(recordOf(job), 'claimedBy', 'visibleAt'),
        state: 'delayed',
        runAt: t0 + 10_000,
        updatedAt: t0 + 100,
        lastError: boom,
      });
      await clock.advance(9_900);
      expect((await mustGet(driver, job.id)).state).toBe('ready');
    },
  },
  {
    title: 'nack with attempts left and no retryAt makes the row ready now',
    run: async ({ driver, clock, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver);
      await clock.advance(100);
      expect(await driver.nack(fence, { error: boom })).toBe(true);
      expect(await mustGet(driver, job.id)).toStrictEqual({
        ...without(recordOf(job), 'claimedBy', 'visibleAt'),
        state: 'ready',
        runAt: t0 + 100,
        updatedAt: t0 + 100,
        lastError: boom,
      });
    },
  },
  {
    title: 'nack with a retryAt at or before now makes the row ready with runAt = now',
    run: async ({ driver, clock, t0 }) => {
      await clock.advance(1_000);
      const now = t0 + 1_000;
      for (const retryAt of [now, now - 500]) {
        const { job, fence } = await enqueueAndClaim(driver);
        expect(await driver.nack(fence, { error: boom, retryAt })).toBe(true);
        expect(await mustGet(driver, job.id)).toMatchObject({ state: 'ready', runAt: now });
      }
    },
  },
  {
    title: 'nack with final: true settles the row dead at once, attempts left or not',
    run: async ({ driver, clock, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver, { maxAttempts: 10 });
      await clock.advance(100);
      expect(await driver.nack(fence, { error: boom, final: true, retryAt: t0 + 5_000 })).toBe(
        true,
      );
      expect(await mustGet(driver, job.id)).toStrictEqual({
        ...without(recordOf(job), 'claimedBy', 'visibleAt'),
        state: 'dead',
        finishedAt: t0 + 100,
        updatedAt: t0 + 100,
        lastError: boom,
      });
    },
  },
  {
    title: 'nack on the final attempt settles the row dead, whatever retryAt says',
    run: async ({ driver, clock, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver, { maxAttempts: 2 });
      expect(await driver.nack(fence, { error: boom })).toBe(true);
      const last = await claimExactly(driver, job.queue, job.id, OTHER_WORKER);
      expect(last.attempts).toBe(2);
      await clock.advance(100);
      expect(await driver.nack(fenceOf(last), { error: boom, retryAt: t0 + 9_000 })).toBe(true);
      expect(await mustGet(driver, job.id)).toStrictEqual({
        ...without(recordOf(last), 'claimedBy', 'visibleAt'),
        state: 'dead',
        finishedAt: t0 + 100,
        updatedAt: t0 + 100,
        lastError: boom,
      });
    },
  },
  {
    title: 'nack with deadLetter: false settles a give-up failed instead of dead',
    run: async ({ driver, t0 }) => {
      const final = await enqueueAndClaim(driver, { maxAttempts: 5 });
      expect(await driver.nack(final.fence, { error: boom, final: true, deadLetter: false })).toBe(
        true,
      );
      expect(await mustGet(driver, final.job.id)).toMatchObject({
        state: 'failed',
        finishedAt: t0,
        lastError: boom,
      });
      const exhausted = await enqueueAndClaim(driver, { maxAttempts: 1 });
      expect(await driver.nack(exhausted.fence, { error: boom, deadLetter: false })).toBe(true);
      expect(await mustGet(driver, exhausted.job.id)).toMatchObject({
        state: 'failed',
        finishedAt: t0,
      });
    },
  },
  {
    title: 'nack with deadLetter: false and attempts left still retries',
    run: async ({ driver, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver, { maxAttempts: 2 });
      expect(await driver.nack(fence, { error: boom, deadLetter: false, retryAt: t0 + 50 })).toBe(
        true,
      );
      const retried = await mustGet(driver, job.id);
      expect(retried).toMatchObject({ state: 'delayed', runAt: t0 + 50, lastError: boom });
      expect(retried).not.toHaveProperty('finishedAt');
    },
  },
  {
    title: `nack stores lastError with its stack cut to MAX_ERROR_STACK_LENGTH (${MAX_ERROR_STACK_LENGTH}) and its message to MAX_ERROR_MESSAGE_LENGTH`,
    run: async ({ driver }) => {
      const { job, fence } = await enqueueAndClaim(driver);
      const stack = `Error: deep\n${'    at frame\n'.repeat(1_000)}`;
      const message = 'm'.repeat(MAX_ERROR_MESSAGE_LENGTH + 100);
      expect(await driver.nack(fence, { error: { code: 'DEEP', message, stack } })).toBe(true);
      expect((await mustGet(driver, job.id)).lastError).toStrictEqual({
        code: 'DEEP',
        message: message.slice(0, MAX_ERROR_MESSAGE_LENGTH),
        stack: stack.slice(0, MAX_ERROR_STACK_LENGTH),
      });
    },
  },
  {
    title:
      'nack stores a lastError of only a message without code or stack, and a later nack replaces it',
    run: async ({ driver }) => {
      const { job, fence } = await enqueueAndClaim(driver);
      expect(await driver.nack(fence, { error: { message: 'plain' } })).toBe(true);
      expect((await mustGet(driver, job.id)).lastError).toStrictEqual({ message: 'plain' });
      const again = await claimExactly(driver, job.queue, job.id);
      expect(await driver.nack(fenceOf(again), { error: boom })).toBe(true);
      expect((await mustGet(driver, job.id)).lastError).toStrictEqual(boom);
    },
  },
];

export const settleGroup: KitGroup = {
  name: 'settle',
  cases: [
    ...ackCases,
    ...nackCases,
    ...settleSuspendCases,
    ...settleCancelCases,
    ...settleManyCases,
    ...settleFenceCases,
    ...settleExtendManyCases,
  ],
};
