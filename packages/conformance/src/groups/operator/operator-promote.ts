import type { JobState } from '@berth/core';
import { expect } from 'vitest';
import { expectRefusal } from '../../assert.js';
import type { KitCase } from '../../kit.js';
import { jobIn, LATER, LEASE_MS, mustGet, WORKER } from '../fixtures/index.js';

/** Every state promote refuses, as the stored state a job is built in. */
const REFUSED: readonly JobState[] = [
  'ready',
  'running',
  'suspended',
  'completed',
  'failed',
  'dead',
  'cancelled',
];

const promoteRefused = REFUSED.map(
  (state): KitCase => ({
    title: `promote of a ${state} job answers JOB_NOT_PROMOTABLE with meta.state ${state} and changes nothing`,
    run: async ({ driver, clock }) => {
      const made = await jobIn(driver, state);
      const before = await mustGet(driver, made.id);
      await clock.advance(1_000);
      const error = await expectRefusal(driver.promote(made.id), 'JOB_NOT_PROMOTABLE');
      expect(error.meta).toEqual({ jobId: made.id, state });
      expect(await mustGet(driver, made.id)).toEqual(before);
    },
  }),
);

export const promoteCases: readonly KitCase[] = [
  {
    title:
      'promote of a delayed job not yet due answers it ready with runAt now, claimable at once',
    run: async ({ driver, clock, t0 }) => {
      const { id } = await driver.enqueue({ name: 'kit.job', queue: 'later', runAt: t0 + LATER });
      await clock.advance(1_000);
      const before = await mustGet(driver, id);
      const answer = await driver.promote(id);
      expect(answer).toStrictEqual({
        ...before,
        state: 'ready',
        runAt: t0 + 1_000,
        updatedAt: t0 + 1_000,
      });
      expect(await mustGet(driver, id)).toEqual(answer);
      const claimed = await driver.claim({
        queues: ['later'],
        workerId: WORKER,
        visibilityTimeoutMs: LEASE_MS,
      });
      expect(claimed.map((job) => [job.id, job.attempts, job.claim])).toEqual([[id, 1, 1]]);
    },
  },
  {
    title:
      'a promoted job is claimed in order of its new runAt, after jobs due before it was promoted',
    run: async ({ driver, clock, t0 }) => {
      const first = await driver.enqueue({ name: 'kit.job', queue: 'q' });
      const delayed = await driver.enqueue({ name: 'kit.job', queue: 'q', runAt: t0 + LATER });
      await clock.advance(10);
      const second = await driver.enqueue({ name: 'kit.job', queue: 'q' });
      await clock.advance(10);
      await driver.promote(delayed.id);
      const claimed = await driver.claim({
        queues: ['q'],
        limit: 3,
        workerId: WORKER,
        visibilityTimeoutMs: LEASE_MS,
      });
      expect(claimed.map((job) => job.id)).toEqual([first.id, second.id, delayed.id]);
      expect(claimed.map((job) => job.runAt)).toEqual([t0, t0 + 10, t0 + 20]);
    },
  },
  {
    title:
      'promote of a delayed job whose runAt has come answers JOB_NOT_PROMOTABLE with meta.state ready',
    run: async ({ driver, clock, t0 }) => {
      const { id } = await driver.enqueue({ name: 'kit.job', runAt: t0 + 500 });
      await clock.advance(500);
      const before = await mustGet(driver, id);
      const error = await expectRefusal(driver.promote(id), 'JOB_NOT_PROMOTABLE');
      expect(error.meta).toEqual({ jobId: id, state: 'ready' });
      expect(await mustGet(driver, id)).toEqual(before);
      expect(before.runAt).toBe(t0 + 500);
    },
  },
  {
    title:
      'promote of a suspended job whose until has come answers JOB_NOT_PROMOTABLE with meta.state ready',
    run: async ({ driver, clock }) => {
      const made = await jobIn(driver, 'suspended');
      await clock.advance(LATER);
      await expectRefusal(driver.promote(made.id), 'JOB_NOT_PROMOTABLE', {
        jobId: made.id,
        state: 'ready',
      });
    },
  },
  {
    title: 'a second promote of a promoted job answers JOB_NOT_PROMOTABLE with meta.state ready',
    run: async ({ driver, t0 }) => {
      const { id } = await driver.enqueue({ name: 'kit.job', runAt: t0 + LATER });
      await driver.promote(id);
      await expectRefusal(driver.promote(id), 'JOB_NOT_PROMOTABLE', { jobId: id, state: 'ready' });
    },
  },
  ...promoteRefused,
];
