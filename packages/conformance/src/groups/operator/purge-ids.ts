import { randomUUID } from 'node:crypto';
import { MAX_JOB_PAGE } from '@berth/core';
import { expect } from 'vitest';
import { expectRefusal } from '../../assert.js';
import type { KitCase } from '../../kit.js';
import { jobIn, stepNames } from '../fixtures/index.js';

/** `purge({ ids })`: an operator removing the rows they chose (the stats group runs these). */
export const purgeIdCases: readonly KitCase[] = [
  {
    title:
      'purge with ids removes only those of the ids whose row matches states and olderThan, with their steps',
    run: async ({ driver, clock }) => {
      const chosen = await jobIn(driver, 'dead', { queue: 'a' }, { steps: ['fetch'] });
      const other = await jobIn(driver, 'dead', { queue: 'a' }, { steps: ['fetch'] });
      const done = await jobIn(driver, 'completed', { queue: 'a' });
      const live = await jobIn(driver, 'ready', { queue: 'a' });
      await clock.advance(10);
      const late = await jobIn(driver, 'dead', { queue: 'b' });
      const olderThan = clock.now();
      const ids = [chosen.id, done.id, live.id, late.id, randomUUID()];
      expect(await driver.purge({ states: ['dead'], olderThan, ids })).toBe(1);
      expect(await driver.get(chosen.id)).toBeUndefined();
      expect(await driver.steps.list(chosen.runId)).toEqual([]);
      expect((await driver.get(other.id))?.state).toBe('dead');
      expect(await stepNames(driver, other.runId)).toEqual(['fetch']);
      expect((await driver.get(done.id))?.state).toBe('completed');
      expect((await driver.get(live.id))?.state).toBe('ready');
      expect((await driver.get(late.id))?.state).toBe('dead');
      expect(await driver.purge({ states: ['dead'], olderThan, ids: [chosen.id] })).toBe(0);
      const all = ['completed', 'dead'] as const;
      expect(await driver.purge({ states: [...all], olderThan: olderThan + 1, ids })).toBe(2);
      expect(await driver.get(late.id)).toBeUndefined();
      expect((await driver.list()).jobs.map((job) => job.id).sort()).toEqual(
        [other.id, live.id].sort(),
      );
    },
  },
  {
    title: 'a queue whose last row a purge with ids removed drops out of stats',
    run: async ({ driver, clock }) => {
      const only = await jobIn(driver, 'dead', { queue: 'lonely' });
      await jobIn(driver, 'dead', { queue: 'kept' });
      await clock.advance(1);
      expect(await driver.purge({ states: ['dead'], olderThan: clock.now(), ids: [only.id] })).toBe(
        1,
      );
      expect((await driver.stats()).map((entry) => entry.queue)).toEqual(['kept']);
    },
  },
  {
    title:
      'purge with ids that is empty, over MAX_JOB_PAGE long or not all uuids answers JOB_INVALID and removes nothing',
    run: async ({ driver, clock }) => {
      const dead = await jobIn(driver, 'dead');
      await clock.advance(1);
      const olderThan = clock.now();
      const tooMany = Array.from({ length: MAX_JOB_PAGE + 1 }, () => randomUUID());
      for (const ids of [[], tooMany, [dead.id, 'not-a-uuid']]) {
        await expectRefusal(driver.purge({ states: ['dead'], olderThan, ids }), 'JOB_INVALID', {
          field: 'ids',
        });
      }
      expect((await driver.get(dead.id))?.state).toBe('dead');
    },
  },
];
