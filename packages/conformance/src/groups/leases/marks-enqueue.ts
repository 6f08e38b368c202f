import { randomUUID } from 'node:crypto';
import type { Driver, EnqueueResult, MarkedEnqueueRequest, MarkPassed } from '@berth/core';
import { expect } from 'vitest';
import { expectRefusal } from '../../assert.js';
import type { KitCase } from '../../kit.js';
import { fleet } from '../concurrency/concurrency-support.js';

const MARK = 'schedule:nightly';

/** A slot's enqueue: its own id, raising MARK to `value` in the same change. */
const slot = (id: string, value: number, queue = 'cron'): MarkedEnqueueRequest => ({
  id,
  name: 'nightly',
  queue,
  advanceMark: { name: MARK, value },
});

const made = (answer: EnqueueResult | MarkPassed) =>
  'markPassed' in answer ? 'markPassed' : answer.deduped ? 'deduped' : 'made';

/** Runs every job of `queue` to completion and purges them, as retention does. */
async function runAndPurge(driver: Driver, queue: string, olderThan: number): Promise<number> {
  for (;;) {
    const [job] = await driver.claim({
      queues: [queue],
      workerId: 'w',
      visibilityTimeoutMs: 60_000,
    });
    if (job === undefined) break;
    expect(await driver.ack({ jobId: job.id, workerId: 'w', claim: job.claim })).toBe(true);
  }
  return driver.purge({ states: ['completed'], olderThan });
}

/** Enqueue with `advanceMark`: the job and the mark land in one change, once. */
export const marksEnqueueCases: readonly KitCase[] = [
  {
    title:
      'enqueue with advanceMark makes the job and raises the mark; again at that value it answers markPassed and makes nothing, even once the job was purged',
    run: async ({ driver, clock, t0 }) => {
      const id = randomUUID();
      const first = await driver.enqueue(slot(id, t0));
      expect(first).toMatchObject({ id, deduped: false });
      expect(await driver.marks.get(MARK)).toBe(t0);
      expect(await driver.enqueue(slot(id, t0))).toEqual({ markPassed: true });
      expect((await driver.list({ queue: 'cron' })).jobs).toHaveLength(1);

      expect(await runAndPurge(driver, 'cron', clock.now() + 1)).toBe(1);
      expect(await driver.enqueue(slot(id, t0))).toEqual({ markPassed: true });
      expect(await driver.enqueue(slot(randomUUID(), t0 - 60_000))).toEqual({ markPassed: true });
      expect((await driver.list({ queue: 'cron' })).jobs).toEqual([]);
      expect(await driver.marks.get(MARK)).toBe(t0);

      const later = await driver.enqueue(slot(randomUUID(), t0 + 60_000));
      expect(made(later)).toBe('made');
      expect(await driver.marks.get(MARK)).toBe(t0 + 60_000);
      expect((await driver.list({ queue: 'cron' })).jobs).toHaveLength(1);
    },
  },
  {
    title:
      'enqueue with advanceMark whose id already holds a job answers that job, deduped, and raises the mark',
    run: async ({ driver, t0 }) => {
      const id = randomUUID();
      const plain = await driver.enqueue({ id, name: 'nightly', queue: 'cron' });
      expect(await driver.marks.get(MARK)).toBeUndefined();
      const answer = await driver.enqueue(slot(id, t0));
      expect(answer).toEqual({ id, runId: plain.runId, deduped: true });
      expect(await driver.marks.get(MARK)).toBe(t0);
      expect((await driver.list({ queue: 'cron' })).jobs).toHaveLength(1);
    },
  },
  {
    title:
      'enqueue with advanceMark that is refused (a live key holder under onConflict error, an id of another tenant) raises no mark; one deduped to the key holder raises it',
    run: async ({ driver, t0 }) => {
      const holder = await driver.enqueue({ name: 'nightly', queue: 'cron', idempotencyKey: 'k' });
      const keyed = { ...slot(randomUUID(), t0), idempotencyKey: 'k' };
      await expectRefusal(driver.enqueue({ ...keyed, onConflict: 'error' }), 'JOB_DUPLICATE', {
        existingId: holder.id,
      });
      expect(await driver.marks.get(MARK)).toBeUndefined();

      const theirs = randomUUID();
      await driver.enqueue({ id: theirs, name: 'nightly', queue: 'cron', tenantId: 'acme' });
      await expectRefusal(
        driver.enqueue({ ...slot(theirs, t0), tenantId: 'globex' }),
        'JOB_INVALID',
        { field: 'id' },
      );
      expect(await driver.marks.get(MARK)).toBeUndefined();

      expect(await driver.enqueue(keyed)).toEqual({ ...holder, deduped: true });
      expect(await driver.marks.get(MARK)).toBe(t0);
      expect((await driver.list({ queue: 'cron' })).jobs).toHaveLength(2);
    },
  },
  {
    title:
      'racing enqueues advancing one mark to one value, from several processes, make exactly one job between them',
    timeoutMs: 30_000,
    run: async (context) => {
      const { t0 } = context;
      const drivers = await fleet(context);
      for (let round = 0; round < 3; round += 1) {
        const id = randomUUID();
        const value = t0 + round * 60_000;
        const answers = await Promise.all(
          drivers.flatMap((driver) => [0, 1].map(() => driver.enqueue(slot(id, value)))),
        );
        const kinds = answers.map(made);
        expect(
          kinds.filter((kind) => kind === 'made'),
          `round ${round}`,
        ).toHaveLength(1);
        for (const answer of answers) {
          if (!('markPassed' in answer)) expect(answer.id).toBe(id);
        }
        expect(await context.driver.marks.get(MARK)).toBe(value);
      }
      expect((await context.driver.list({ queue: 'cron' })).jobs).toHaveLength(3);
    },
  },
  {
    title:
      'enqueue refuses an advanceMark without an id, with a bad name, value or field, and in enqueueMany, with JOB_INVALID',
    run: async ({ driver, t0 }) => {
      const { id: _id, ...noId } = slot(randomUUID(), t0);
      await expectRefusal(driver.enqueue(noId as MarkedEnqueueRequest), 'JOB_INVALID', {
        field: 'advanceMark',
      });
      const bad = (advanceMark: unknown) =>
        driver.enqueue({ ...slot(randomUUID(), t0), advanceMark } as MarkedEnqueueRequest);
      await expectRefusal(bad({ name: '', value: t0 }), 'JOB_INVALID', {
        field: 'advanceMark.name',
      });
      for (const value of [-1, 1.5, Number.NaN, 2 ** 53, '5']) {
        await expectRefusal(bad({ name: MARK, value }), 'JOB_INVALID', {
          field: 'advanceMark.value',
        });
      }
      await expectRefusal(bad({ name: MARK, value: t0, extra: 1 }), 'JOB_INVALID', {
        field: 'advanceMark.extra',
      });
      await expectRefusal(bad('schedule'), 'JOB_INVALID', { field: 'advanceMark' });
      const batch = [slot(randomUUID(), t0)] as unknown as Parameters<Driver['enqueueMany']>[0];
      await expectRefusal(driver.enqueueMany(batch), 'JOB_INVALID', {
        field: 'advanceMark',
        index: 0,
      });
      expect(await driver.marks.get(MARK)).toBeUndefined();
      expect((await driver.list({ queue: 'cron' })).jobs).toEqual([]);
    },
  },
];
