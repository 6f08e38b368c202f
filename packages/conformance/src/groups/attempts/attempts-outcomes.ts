import type { JobError } from '@berth/core';
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
import { staleFences } from '../settle/settle-fence.js';
import { historyOf, outcomesOf, recordsOf } from './attempts-support.js';

const BOOM: JobError = { code: 'APP_FAILED', message: 'the handler threw', stack: 'Error: at x' };

export const attemptOutcomeCases: readonly KitCase[] = [
  {
    title:
      'an ack records one completed attempt: attempt 1, its claim and worker, claimedAt the claim instant, endedAt the ack instant, no error',
    run: async ({ driver, clock, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver);
      expect(await recordsOf(driver, job.id)).toEqual([]);
      await clock.advance(1_500);
      expect(await driver.ack(fence, { result: 1 })).toBe(true);
      expect(await historyOf(driver, job.id)).toStrictEqual({
        records: [
          {
            seq: 1,
            attempt: 1,
            claim: job.claim,
            workerId: WORKER,
            claimedAt: t0,
            endedAt: t0 + 1_500,
            outcome: 'completed',
          },
        ],
        dropped: 0,
      });
    },
  },
  {
    title:
      'nacks record retried with their error while attempts remain, then failed for the give-up, oldest first with seq 1, 2, 3',
    run: async ({ driver, clock, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver, { maxAttempts: 3 });
      await clock.advance(10);
      expect(await driver.nack(fence, { error: BOOM })).toBe(true);
      const second = await claimExactly(driver, job.queue, job.id, OTHER_WORKER);
      await clock.advance(10);
      expect(await driver.nack(fenceOf(second), { error: { message: 'again' }, retryAt: t0 })).toBe(
        true,
      );
      const third = await claimExactly(driver, job.queue, job.id);
      await clock.advance(10);
      expect(await driver.nack(fenceOf(third), { error: { message: 'last' } })).toBe(true);
      expect((await mustGet(driver, job.id)).state).toBe('dead');
      const records = await recordsOf(driver, job.id);
      expect(records).toStrictEqual([
        {
          seq: 1,
          attempt: 1,
          claim: job.claim,
          workerId: WORKER,
          claimedAt: t0,
          endedAt: t0 + 10,
          outcome: 'retried',
          error: BOOM,
        },
        {
          seq: 2,
          attempt: 2,
          claim: second.claim,
          workerId: OTHER_WORKER,
          claimedAt: t0 + 10,
          endedAt: t0 + 20,
          outcome: 'retried',
          error: { message: 'again' },
        },
        {
          seq: 3,
          attempt: 3,
          claim: third.claim,
          workerId: WORKER,
          claimedAt: t0 + 20,
          endedAt: t0 + 30,
          outcome: 'failed',
          error: { message: 'last' },
        },
      ]);
    },
  },
  {
    title:
      'a final nack records failed whatever attempts remain, and one with deadLetter false too; a give-up whose error code is LEASE_LAPSED records lapsed',
    run: async ({ driver }) => {
      const dead = await enqueueAndClaim(driver, { maxAttempts: 5 });
      expect(await driver.nack(dead.fence, { error: BOOM, final: true })).toBe(true);
      expect(await outcomesOf(driver, dead.job.id)).toEqual(['failed']);
      const failed = await enqueueAndClaim(driver, { maxAttempts: 1 });
      expect(await driver.nack(failed.fence, { error: BOOM, deadLetter: false })).toBe(true);
      expect((await mustGet(driver, failed.job.id)).state).toBe('failed');
      expect(await outcomesOf(driver, failed.job.id)).toEqual(['failed']);
      const lapsed = await enqueueAndClaim(driver, { maxAttempts: 1 });
      const error = { code: 'LEASE_LAPSED', message: 'lost it' };
      expect(await driver.nack(lapsed.fence, { error })).toBe(true);
      expect((await historyOf(driver, lapsed.job.id)).records).toMatchObject([
        { outcome: 'lapsed', error },
      ]);
      const retried = await enqueueAndClaim(driver, { maxAttempts: 2 });
      expect(await driver.nack(retried.fence, { error })).toBe(true);
      expect(await outcomesOf(driver, retried.job.id)).toEqual(['retried']);
    },
  },
  {
    title:
      'a suspend records suspended; the resumed run is a new record of the same attempt number under the next claim',
    run: async ({ driver, clock, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver);
      await clock.advance(5);
      expect(await driver.suspend(fence, { until: t0 + 100 })).toBe(true);
      await clock.advance(95);
      const resumed = await claimExactly(driver, job.queue, job.id, OTHER_WORKER);
      expect(resumed.resumed).toBe(true);
      await clock.advance(1);
      expect(await driver.ack(fenceOf(resumed))).toBe(true);
      expect(await recordsOf(driver, job.id)).toStrictEqual([
        {
          seq: 1,
          attempt: 1,
          claim: job.claim,
          workerId: WORKER,
          claimedAt: t0,
          endedAt: t0 + 5,
          outcome: 'suspended',
        },
        {
          seq: 2,
          attempt: 1,
          claim: resumed.claim,
          workerId: OTHER_WORKER,
          claimedAt: t0 + 100,
          endedAt: t0 + 101,
          outcome: 'completed',
        },
      ]);
    },
  },
  {
    title:
      'cancel of a running job records cancelled under its holder; cancel of a ready or suspended job records nothing',
    run: async ({ driver, clock, t0 }) => {
      const running = await enqueueAndClaim(driver);
      await clock.advance(7);
      expect((await driver.cancel(running.job.id)).state).toBe('cancelled');
      expect(await recordsOf(driver, running.job.id)).toStrictEqual([
        {
          seq: 1,
          attempt: 1,
          claim: running.job.claim,
          workerId: WORKER,
          claimedAt: t0,
          endedAt: t0 + 7,
          outcome: 'cancelled',
        },
      ]);
      expect(await driver.ack(running.fence)).toBe(false);
      expect(await outcomesOf(driver, running.job.id)).toEqual(['cancelled']);

      const { id } = await driver.enqueue({ name: 'task', queue: freshQueue() });
      await driver.cancel(id);
      expect(await recordsOf(driver, id)).toEqual([]);
      const waiting = await enqueueAndClaim(driver);
      expect(await driver.suspend(waiting.fence, { until: t0 + 60_000 })).toBe(true);
      await driver.cancel(waiting.job.id);
      expect(await outcomesOf(driver, waiting.job.id)).toEqual(['suspended']);
    },
  },
  {
    title:
      'a lapsed lease taken again records lapsed (no error, endedAt the re-claim instant); the stale holder then writes nothing',
    run: async ({ driver, clock, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver, { maxAttempts: 3 }, WORKER, 1_000);
      await clock.advance(1_000);
      expect(await recordsOf(driver, job.id)).toEqual([]);
      await clock.advance(500);
      const again = await claimExactly(driver, job.queue, job.id, OTHER_WORKER);
      expect(await driver.ack(fence)).toBe(false);
      expect(await driver.nack(fence, { error: BOOM })).toBe(false);
      expect(await recordsOf(driver, job.id)).toStrictEqual([
        {
          seq: 1,
          attempt: 1,
          claim: job.claim,
          workerId: WORKER,
          claimedAt: t0,
          endedAt: t0 + 1_500,
          outcome: 'lapsed',
        },
      ]);
      expect(await driver.ack(fenceOf(again))).toBe(true);
      expect(await outcomesOf(driver, job.id)).toEqual(['lapsed', 'completed']);
    },
  },
  {
    title:
      'a lapsed lease nobody took again still settles as its holder: the ack records completed, not lapsed',
    run: async ({ driver, clock }) => {
      const { job, fence } = await enqueueAndClaim(driver, {}, WORKER, 1_000);
      await clock.advance(5_000);
      expect(await driver.ack(fence)).toBe(true);
      expect(await outcomesOf(driver, job.id)).toEqual(['completed']);
    },
  },
  {
    title:
      'a final-attempt lapse buried by a claim records lapsed with the LEASE_LAPSED error it stored, dead or failed alike',
    run: async ({ driver, clock, t0 }) => {
      const queue = freshQueue();
      const dead = await enqueueAndClaim(driver, { queue, maxAttempts: 1 }, WORKER, 1_000);
      const dropped = await enqueueAndClaim(
        driver,
        { queue, name: 'fragile', maxAttempts: 1 },
        WORKER,
        1_000,
      );
      await clock.advance(2_000);
      const claimed = await driver.claim({
        queues: [queue],
        limit: 2,
        workerId: OTHER_WORKER,
        visibilityTimeoutMs: 1_000,
        dropExhausted: ['fragile'],
      });
      expect(claimed).toEqual([]);
      for (const { job } of [dead, dropped]) {
        const row = await mustGet(driver, job.id);
        expect(row.lastError?.code).toBe('LEASE_LAPSED');
        expect(await recordsOf(driver, job.id)).toStrictEqual([
          {
            seq: 1,
            attempt: 1,
            claim: job.claim,
            workerId: WORKER,
            claimedAt: t0,
            endedAt: t0 + 2_000,
            outcome: 'lapsed',
            error: row.lastError,
          },
        ]);
      }
      expect((await mustGet(driver, dropped.job.id)).state).toBe('failed');
    },
  },
  ...staleFences.map(
    ({ what, make }): KitCase => ({
      title: `ack, nack and suspend with ${what} write no attempt record`,
      run: async ({ driver, clock, t0 }) => {
        const { jobId, stale, holder } = await make(driver, clock, t0);
        const before = await historyOf(driver, jobId);
        expect(await driver.ack(stale)).toBe(false);
        expect(await driver.nack(stale, { error: BOOM })).toBe(false);
        expect(await driver.suspend(stale, { until: t0 + 60_000 })).toBe(false);
        expect(await driver.ackMany([{ fence: stale }])).toEqual([false]);
        expect(await driver.nackMany([{ fence: stale, error: BOOM }])).toEqual([false]);
        expect(await historyOf(driver, jobId)).toStrictEqual(before);
        if (holder !== undefined) {
          expect(await driver.ack(holder)).toBe(true);
          const after = await historyOf(driver, jobId);
          expect(after.records.at(-1)).toMatchObject({
            outcome: 'completed',
            workerId: holder.workerId,
            claim: holder.claim,
          });
          expect(after.records.length).toBe(before.records.length + 1);
        }
      },
    }),
  ),
  {
    title:
      'extend, progress and a step write end no attempt; ackMany and nackMany record each item that landed, once, and none for a fence given twice',
    run: async ({ driver }) => {
      const a = await enqueueAndClaim(driver);
      const b = await enqueueAndClaim(driver);
      const c = await enqueueAndClaim(driver, { maxAttempts: 2 });
      expect(await driver.extend(a.fence, 60_000)).toBe(true);
      expect(await driver.progress(a.fence, { half: true })).toBe(true);
      expect(await recordsOf(driver, a.job.id)).toEqual([]);
      expect(
        await driver.ackMany([{ fence: a.fence }, { fence: b.fence }, { fence: a.fence }]),
      ).toEqual([true, true, false]);
      expect(
        await driver.nackMany([
          { fence: c.fence, error: BOOM },
          { fence: c.fence, error: BOOM },
        ]),
      ).toEqual([true, false]);
      expect(await outcomesOf(driver, a.job.id)).toEqual(['completed']);
      expect(await outcomesOf(driver, b.job.id)).toEqual(['completed']);
      expect(await outcomesOf(driver, c.job.id)).toEqual(['retried']);
    },
  },
  {
    title:
      'a requeue keeps the history and the next attempt continues it (attempt 1 again, seq going on)',
    run: async ({ driver }) => {
      const { job, fence } = await enqueueAndClaim(driver, { maxAttempts: 1 });
      expect(await driver.nack(fence, { error: BOOM })).toBe(true);
      expect((await driver.requeue(job.id)).state).toBe('ready');
      expect(await outcomesOf(driver, job.id)).toEqual(['failed']);
      const again = await claimExactly(driver, job.queue, job.id);
      expect(await driver.ack(fenceOf(again))).toBe(true);
      expect((await recordsOf(driver, job.id)).map((r) => [r.seq, r.attempt, r.outcome])).toEqual([
        [1, 1, 'failed'],
        [2, 1, 'completed'],
      ]);
    },
  },
];
