import { JOB_STATES, type JobState, type StateCounts } from '@berth/core';
import { expect } from 'vitest';
import { expectRefusal } from '../../assert.js';
import type { KitCase, KitGroup } from '../../kit.js';
import { enqueueJob, jobIn, LATER, stepNames } from '../fixtures/index.js';
import { purgeIdCases } from '../operator/purge-ids.js';
import { purgeLimitCases } from '../operator/purge-limit.js';

const counts = (given: Partial<Record<JobState, number>>): StateCounts => ({
  ready: 0,
  delayed: 0,
  running: 0,
  suspended: 0,
  completed: 0,
  failed: 0,
  dead: 0,
  cancelled: 0,
  ...given,
});

const statsCases: readonly KitCase[] = [
  {
    title: 'stats of a driver holding no rows answers no entries',
    run: async ({ driver }) => {
      expect(await driver.stats()).toEqual([]);
    },
  },
  {
    title:
      'stats answers one entry per queue holding a row, sorted by queue name in code-unit order',
    run: async ({ driver }) => {
      for (const queue of ['b', 'é', 'a-1', 'B', 'a', '_', 'a'])
        await enqueueJob(driver, { queue });
      const stats = await driver.stats();
      expect(stats.map((entry) => entry.queue)).toEqual(['B', '_', 'a', 'a-1', 'b', 'é']);
      expect(stats.find((entry) => entry.queue === 'a')?.counts).toEqual(counts({ ready: 2 }));
    },
  },
  {
    title: 'stats counts every effective state of a queue, all eight keys present, zeros included',
    run: async ({ driver, clock, t0 }) => {
      const queue = { queue: 'work' };
      for (const state of ['running', 'suspended', 'completed', 'failed', 'dead'] as const) {
        await jobIn(driver, state, queue);
      }
      await jobIn(driver, 'suspended', queue);
      await jobIn(driver, 'cancelled', queue);
      await jobIn(driver, 'cancelled', queue);
      await jobIn(driver, 'delayed', queue);
      await jobIn(driver, 'delayed', { ...queue, runAt: t0 + 100 });
      await enqueueJob(driver, queue);
      await enqueueJob(driver, { queue: 'other', runAt: t0 + LATER });
      await clock.advance(100);
      const stats = await driver.stats();
      expect(stats).toEqual([
        {
          queue: 'other',
          counts: counts({ delayed: 1 }),
          oldestReadyAgeMs: null,
        },
        {
          queue: 'work',
          counts: counts({
            ready: 2,
            delayed: 1,
            running: 1,
            suspended: 2,
            completed: 1,
            failed: 1,
            dead: 1,
            cancelled: 2,
          }),
          oldestReadyAgeMs: 100,
        },
      ]);
      expect(Object.keys(stats[1]?.counts ?? {}).sort()).toEqual([...JOB_STATES].sort());
      await clock.advance(LATER);
      const later = await driver.stats();
      expect(later[1]?.counts).toEqual(
        counts({ ready: 5, running: 1, completed: 1, failed: 1, dead: 1, cancelled: 2 }),
      );
      expect(later[0]?.counts).toEqual(counts({ ready: 1 }));
    },
  },
  {
    title: 'stats oldestReadyAgeMs is now minus the runAt of the oldest effectively ready row',
    run: async ({ driver, clock, t0 }) => {
      await jobIn(driver, 'running', { queue: 'q' });
      await enqueueJob(driver, { queue: 'q', runAt: t0 + 500 });
      await enqueueJob(driver, { queue: 'q', runAt: t0 + 10_000 });
      await clock.advance(1_000);
      await enqueueJob(driver, { queue: 'q' });
      await clock.advance(2_000);
      expect((await driver.stats())[0]?.oldestReadyAgeMs).toBe(2_500);
      await enqueueJob(driver, { queue: 'q', runAt: t0 + 200 });
      expect((await driver.stats())[0]?.oldestReadyAgeMs).toBe(2_800);
    },
  },
  {
    title: 'stats oldestReadyAgeMs is null for a queue with no ready row',
    run: async ({ driver }) => {
      for (const state of ['running', 'delayed', 'suspended', 'dead', 'completed'] as const) {
        await jobIn(driver, state, { queue: 'idle' });
      }
      const stats = await driver.stats();
      expect(stats.map((entry) => [entry.queue, entry.oldestReadyAgeMs])).toEqual([['idle', null]]);
    },
  },
];

const purgeCases: readonly KitCase[] = [
  {
    title:
      'purge removes terminal rows of the named states with finishedAt before olderThan and answers the count',
    run: async ({ driver, clock, t0 }) => {
      const completed = await jobIn(driver, 'completed');
      const early = await jobIn(driver, 'failed');
      await clock.advance(1_000);
      const dead = await jobIn(driver, 'dead');
      const failed = await jobIn(driver, 'failed');
      await clock.advance(1_000);
      const cancelled = await jobIn(driver, 'cancelled');
      expect(await driver.purge({ states: ['completed', 'dead'], olderThan: t0 + 1_000 })).toBe(1);
      expect(await driver.get(completed.id)).toBeUndefined();
      expect((await driver.get(early.id))?.state).toBe('failed');
      expect((await driver.get(dead.id))?.state).toBe('dead');
      expect(await driver.purge({ states: ['dead'], olderThan: t0 + 1_001 })).toBe(1);
      expect((await driver.get(failed.id))?.state).toBe('failed');
      const all = ['completed', 'failed', 'dead', 'cancelled'] as const;
      expect(await driver.purge({ states: [...all], olderThan: t0 + 1_001 })).toBe(2);
      expect(await driver.get(early.id)).toBeUndefined();
      expect(await driver.get(failed.id)).toBeUndefined();
      expect((await driver.get(cancelled.id))?.state).toBe('cancelled');
      expect(await driver.purge({ states: ['cancelled'], olderThan: t0 + 2_000 })).toBe(0);
      expect(await driver.purge({ states: ['cancelled'], olderThan: t0 + 2_001 })).toBe(1);
      expect(await driver.list()).toEqual({ jobs: [] });
    },
  },
  {
    title: 'purge never removes a live row, however old',
    run: async ({ driver, clock }) => {
      const live = [];
      for (const state of ['ready', 'delayed', 'running', 'suspended'] as const) {
        live.push(await jobIn(driver, state));
      }
      const done = await jobIn(driver, 'completed');
      await clock.advance(10 * LATER);
      const states = ['completed', 'failed', 'dead', 'cancelled'] as const;
      expect(await driver.purge({ states: [...states], olderThan: clock.now() + 1 })).toBe(1);
      expect(await driver.get(done.id)).toBeUndefined();
      for (const made of live) expect(await driver.get(made.id)).toBeDefined();
      expect((await driver.list()).jobs.length).toBe(4);
    },
  },
  {
    title: 'purge removes the steps of the rows it removes and keeps the steps of others',
    run: async ({ driver, clock }) => {
      const gone = await jobIn(driver, 'completed', { queue: 'a' }, { steps: ['fetch', 'charge'] });
      await clock.advance(10);
      const kept = await jobIn(driver, 'dead', { queue: 'b' }, { steps: ['fetch'] });
      const running = await jobIn(driver, 'running', { queue: 'c' }, { steps: ['fetch'] });
      const states = ['completed', 'dead'] as const;
      expect(await driver.purge({ states: [...states], olderThan: clock.now() })).toBe(1);
      expect(await driver.steps.list(gone.runId)).toEqual([]);
      expect(await driver.steps.get(gone.runId, 'fetch')).toBeUndefined();
      expect(await stepNames(driver, kept.runId)).toEqual(['fetch']);
      expect(await stepNames(driver, running.runId)).toEqual(['fetch']);
    },
  },
  {
    title: 'a queue whose every row was purged drops out of stats',
    run: async ({ driver, clock }) => {
      await jobIn(driver, 'completed', { queue: 'done' });
      await enqueueJob(driver, { queue: 'open' });
      await clock.advance(1);
      expect((await driver.stats()).map((entry) => entry.queue)).toEqual(['done', 'open']);
      await driver.purge({ states: ['completed'], olderThan: clock.now() });
      expect((await driver.stats()).map((entry) => entry.queue)).toEqual(['open']);
    },
  },
  {
    title:
      'purge naming a live state, an unknown state or no state answers JOB_INVALID and removes nothing',
    run: async ({ driver, clock }) => {
      const done = await jobIn(driver, 'completed');
      await clock.advance(1);
      const olderThan = clock.now();
      for (const live of ['ready', 'delayed', 'running', 'suspended'] as const) {
        await expectRefusal(
          driver.purge({ states: ['completed', live], olderThan }),
          'JOB_INVALID',
          {
            field: 'states',
          },
        );
      }
      const bogus = ['finished'] as unknown as JobState[];
      await expectRefusal(driver.purge({ states: bogus, olderThan }), 'JOB_INVALID', {
        field: 'states',
      });
      await expectRefusal(driver.purge({ states: [], olderThan }), 'JOB_INVALID', {
        field: 'states',
      });
      await expectRefusal(
        driver.purge({ states: ['completed'], olderThan: Number.NaN }),
        'JOB_INVALID',
        { field: 'olderThan' },
      );
      expect((await driver.get(done.id))?.state).toBe('completed');
    },
  },
];

export const statsGroup: KitGroup = {
  name: 'stats',
  cases: [...statsCases, ...purgeCases, ...purgeIdCases, ...purgeLimitCases],
};
