import { expect } from 'vitest';
import type { KitCase } from '../../kit.js';
import {
  claimExactly,
  enqueueAndClaim,
  fenceOf,
  freshQueue,
  JOB_ERROR,
  LATER,
  mustGet,
  OTHER_WORKER,
  WORKER,
} from '../fixtures/index.js';
import { kinds, readAll, told, toldOf } from './lifecycle-support.js';

export const lifecycleTransitionCases: readonly KitCase[] = [
  {
    title:
      'a claim writes active, a progress write progress and an ack completed: each names the job, its name, queue, tenant and attempt, at the instant of its change',
    run: async ({ driver, clock, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver, { tenantId: 'acme', name: 'mail' });
      await clock.advance(10);
      expect(await driver.progress(fence, { done: 1 })).toBe(true);
      await clock.advance(10);
      expect(await driver.ack(fence, { result: 1 })).toBe(true);
      const subject = { jobId: job.id, name: 'mail', queue: job.queue, tenantId: 'acme' };
      expect(told(await readAll(driver))).toStrictEqual([
        { type: 'active', ...subject, attempt: 1, at: t0 },
        { type: 'progress', ...subject, attempt: 1, at: t0 + 10 },
        { type: 'completed', ...subject, attempt: 1, at: t0 + 20 },
      ]);
    },
  },
  {
    title: 'an event of a job of no tenant has no tenantId field at all',
    run: async ({ driver, t0 }) => {
      const { job } = await enqueueAndClaim(driver);
      expect(told(await readAll(driver))).toStrictEqual([
        { type: 'active', jobId: job.id, name: 'task', queue: job.queue, attempt: 1, at: t0 },
      ]);
    },
  },
  {
    title:
      'nacks write retried while attempts remain and the state they settle in when they give up (dead, failed with deadLetter false, cancelled with cancel); promote writes nothing',
    run: async ({ driver, clock }) => {
      const { job, fence } = await enqueueAndClaim(driver, { maxAttempts: 3 });
      expect(await driver.nack(fence, { error: JOB_ERROR })).toBe(true);
      const second = await claimExactly(driver, job.queue, job.id, OTHER_WORKER);
      const later = clock.now() + LATER;
      expect(await driver.nack(fenceOf(second), { error: JOB_ERROR, retryAt: later })).toBe(true);
      expect((await driver.promote(job.id)).state).toBe('ready');
      const third = await claimExactly(driver, job.queue, job.id);
      expect(await driver.nack(fenceOf(third), { error: JOB_ERROR })).toBe(true);
      expect(kinds(await toldOf(driver, job.id))).toEqual([
        'active@1',
        'retried@1',
        'active@2',
        'retried@2',
        'active@3',
        'dead@3',
      ]);
      const failed = await enqueueAndClaim(driver, { maxAttempts: 1 });
      expect(await driver.nack(failed.fence, { error: JOB_ERROR, deadLetter: false })).toBe(true);
      expect(kinds(await toldOf(driver, failed.job.id))).toEqual(['active@1', 'failed@1']);
      const cancelled = await enqueueAndClaim(driver, { maxAttempts: 5 });
      expect(await driver.nack(cancelled.fence, { error: JOB_ERROR, cancel: true })).toBe(true);
      expect(kinds(await toldOf(driver, cancelled.job.id))).toEqual(['active@1', 'cancelled@1']);
      const final = await enqueueAndClaim(driver, { maxAttempts: 5 });
      expect(await driver.nack(final.fence, { error: JOB_ERROR, final: true })).toBe(true);
      expect(kinds(await toldOf(driver, final.job.id))).toEqual(['active@1', 'dead@1']);
    },
  },
  {
    title:
      'a suspend writes suspended and the claim that resumes the run writes active with the same attempt',
    run: async ({ driver, clock }) => {
      const { job, fence } = await enqueueAndClaim(driver);
      expect(await driver.suspend(fence, { until: clock.now() + 1_000 })).toBe(true);
      await clock.advance(1_000);
      const resumed = await claimExactly(driver, job.queue, job.id);
      expect(resumed.resumed).toBe(true);
      expect(await driver.ack(fenceOf(resumed))).toBe(true);
      expect(kinds(await toldOf(driver, job.id))).toEqual([
        'active@1',
        'suspended@1',
        'active@1',
        'completed@1',
      ]);
    },
  },
  {
    title:
      'a cancel of a ready, delayed, suspended or running job writes cancelled; a refused cancel writes nothing',
    run: async ({ driver, clock }) => {
      const queue = freshQueue();
      const ready = await driver.enqueue({ name: 'task', queue });
      const delayed = await driver.enqueue({ name: 'task', queue, runAt: clock.now() + LATER });
      const running = await enqueueAndClaim(driver);
      const suspended = await enqueueAndClaim(driver);
      expect(await driver.suspend(suspended.fence, { until: clock.now() + LATER })).toBe(true);
      for (const id of [ready.id, delayed.id, running.job.id, suspended.job.id]) {
        expect((await driver.cancel(id)).state).toBe('cancelled');
      }
      await expect(driver.cancel(ready.id)).rejects.toMatchObject({
        code: 'JOB_NOT_CANCELLABLE',
      });
      expect(kinds(await toldOf(driver, ready.id))).toEqual(['cancelled@0']);
      expect(kinds(await toldOf(driver, delayed.id))).toEqual(['cancelled@0']);
      expect(kinds(await toldOf(driver, running.job.id))).toEqual(['active@1', 'cancelled@1']);
      expect(kinds(await toldOf(driver, suspended.job.id))).toEqual([
        'active@1',
        'suspended@1',
        'cancelled@1',
      ]);
    },
  },
  {
    title:
      'a claim that takes a lapsed lease again writes stalled for the lapsed attempt then active for the new one; one that buries a final attempt writes stalled then dead, or failed for a dropExhausted name',
    run: async ({ driver, clock, t0 }) => {
      const { job } = await enqueueAndClaim(driver, { maxAttempts: 2 }, WORKER, 1_000);
      await clock.advance(1_000);
      const again = await claimExactly(driver, job.queue, job.id, OTHER_WORKER, 1_000);
      expect(again.attempts).toBe(2);
      expect(told(await readAll(driver, { jobId: job.id }))).toMatchObject([
        { type: 'active', attempt: 1, at: t0 },
        { type: 'stalled', attempt: 1, at: t0 + 1_000 },
        { type: 'active', attempt: 2, at: t0 + 1_000 },
      ]);
      await clock.advance(1_000);
      expect(
        await driver.claim({ queues: [job.queue], workerId: WORKER, visibilityTimeoutMs: 1 }),
      ).toEqual([]);
      expect((await mustGet(driver, job.id)).state).toBe('dead');
      expect(kinds(await toldOf(driver, job.id))).toEqual([
        'active@1',
        'stalled@1',
        'active@2',
        'stalled@2',
        'dead@2',
      ]);
      const dropped = await enqueueAndClaim(
        driver,
        { maxAttempts: 1, name: 'drop' },
        WORKER,
        1_000,
      );
      await clock.advance(1_000);
      await driver.claim({
        queues: [dropped.job.queue],
        workerId: WORKER,
        visibilityTimeoutMs: 1_000,
        dropExhausted: ['drop'],
      });
      expect(kinds(await toldOf(driver, dropped.job.id))).toEqual([
        'active@1',
        'stalled@1',
        'failed@1',
      ]);
    },
  },
  {
    title:
      'enqueue, extend, promote, requeue, delete and purge write nothing, nor do settles, progress and extends on a stale fence',
    run: async ({ driver, clock }) => {
      const queue = freshQueue();
      const { id } = await driver.enqueue({ name: 'task', queue, runAt: clock.now() + LATER });
      await driver.enqueueMany([{ name: 'task', queue: freshQueue() }]);
      expect((await driver.promote(id)).state).toBe('ready');
      const job = await claimExactly(driver, queue, id);
      const fence = fenceOf(job);
      expect(await driver.extend(fence, 5_000)).toBe(true);
      expect(await driver.extendMany([fence], 5_000)).toEqual([true]);
      expect(await driver.nack(fence, { error: JOB_ERROR, final: true })).toBe(true);
      const stale = [fence, { ...fence, claim: fence.claim + 7 }];
      for (const gone of stale) {
        expect(await driver.ack(gone)).toBe(false);
        expect(await driver.nack(gone, { error: JOB_ERROR })).toBe(false);
        expect(await driver.suspend(gone, { until: clock.now() + 1 })).toBe(false);
        expect(await driver.progress(gone, 1)).toBe(false);
        expect(await driver.extend(gone, 1_000)).toBe(false);
        expect(await driver.ackMany([{ fence: gone }])).toEqual([false]);
        expect(await driver.nackMany([{ fence: gone, error: JOB_ERROR }])).toEqual([false]);
      }
      expect((await driver.requeue(id)).state).toBe('ready');
      expect((await driver.delete(id)).id).toBe(id);
      const done = await enqueueAndClaim(driver);
      await driver.ack(done.fence);
      await clock.advance(1);
      const before = await readAll(driver);
      expect(await driver.purge({ states: ['completed'], olderThan: clock.now() })).toBe(1);
      expect(kinds(told(before))).toEqual(['active@1', 'dead@1', 'active@1', 'completed@1']);
      expect(await readAll(driver)).toStrictEqual(before);
    },
  },
  {
    title:
      'ackMany and nackMany write one event per landed item and none for a stale one; changes come in the order they took effect',
    run: async ({ driver }) => {
      const queue = freshQueue();
      const [a, b, c] = await driver.enqueueMany(
        ['a', 'b', 'c'].map(() => ({ name: 'task', queue, maxAttempts: 2 })),
      );
      if (a === undefined || b === undefined || c === undefined) throw new Error('three jobs');
      const claimed = await driver.claim({
        queues: [queue],
        workerId: WORKER,
        visibilityTimeoutMs: 60_000,
        limit: 3,
      });
      const fences = new Map(claimed.map((job) => [job.id, fenceOf(job)]));
      const fence = (id: string) => {
        const found = fences.get(id);
        if (found === undefined) throw new Error(`job ${id} was not claimed`);
        return found;
      };
      const stale = { ...fence(c.id), claim: fence(c.id).claim + 1 };
      expect(await driver.ackMany([{ fence: fence(a.id) }, { fence: stale }])).toEqual([
        true,
        false,
      ]);
      expect(
        await driver.nackMany([
          { fence: fence(b.id), error: JOB_ERROR },
          { fence: stale, error: JOB_ERROR },
        ]),
      ).toEqual([true, false]);
      const all = told(await readAll(driver));
      const byJob = (events: typeof all) =>
        [...events].sort((x, y) => (x.jobId < y.jobId ? -1 : x.jobId > y.jobId ? 1 : 0));
      // The claim's three events come first, in the driver's order; then the ack, then the nack.
      expect(byJob(all.slice(0, 3)).map((event) => [event.jobId, event.type])).toEqual(
        [a.id, b.id, c.id].sort().map((id) => [id, 'active']),
      );
      expect(all.slice(3).map((event) => [event.jobId, event.type])).toEqual([
        [a.id, 'completed'],
        [b.id, 'retried'],
      ]);
    },
  },
];
