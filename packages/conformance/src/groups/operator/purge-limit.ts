import { DEFAULT_PURGE_LIMIT, type Driver, MAX_PURGE_LIMIT } from '@berth/core';
import { expect } from 'vitest';
import { expectRefusal } from '../../assert.js';
import type { KitCase } from '../../kit.js';
import { jobIn, WORKER } from '../fixtures/index.js';

/** Makes `count` completed rows in `queue`, a thousand per call. */
async function completedRows(driver: Driver, queue: string, count: number): Promise<void> {
  for (let made = 0; made < count; made += 1_000) {
    const size = Math.min(1_000, count - made);
    await driver.enqueueMany(Array.from({ length: size }, () => ({ name: 'kit.job', queue })));
    const claimed = await driver.claim({
      queues: [queue],
      limit: size,
      workerId: WORKER,
      visibilityTimeoutMs: 60_000,
    });
    const landed = await driver.ackMany(
      claimed.map((job) => ({ fence: { jobId: job.id, workerId: WORKER, claim: job.claim } })),
    );
    expect(landed.filter(Boolean).length).toBe(size);
  }
}

/** `purge({ limit })` and `events.purgeExpired({ limit })`: bounded calls (the stats group). */
export const purgeLimitCases: readonly KitCase[] = [
  {
    title:
      'purge with a limit removes at most that many rows, oldest finishedAt first across the states, then insertion order',
    run: async ({ driver, clock }) => {
      const first = await jobIn(driver, 'completed', { queue: 'a' });
      const twin = await jobIn(driver, 'dead', { queue: 'b' });
      await clock.advance(10);
      const second = await jobIn(driver, 'completed', { queue: 'a' });
      await clock.advance(10);
      const third = await jobIn(driver, 'dead', { queue: 'b' });
      const other = await jobIn(driver, 'failed', { queue: 'a' });
      await clock.advance(10);
      const request = { states: ['dead', 'completed'] as const, olderThan: clock.now() };
      const purge = (limit: number) =>
        driver.purge({ ...request, states: [...request.states], limit });
      const present = async () => (await driver.list()).jobs.map((job) => job.id).sort();
      expect(await purge(1)).toBe(1);
      expect(await driver.get(first.id)).toBeUndefined();
      expect(await driver.get(twin.id)).toBeDefined();
      expect(await purge(2)).toBe(2);
      expect(await driver.get(second.id)).toBeUndefined();
      expect(await present()).toEqual([third.id, other.id].sort());
      expect(await purge(2)).toBe(1);
      expect(await purge(2)).toBe(0);
      expect(await present()).toEqual([other.id]);
    },
  },
  {
    title:
      'purge with ids and a limit removes the oldest matching rows among the ids, at most limit',
    run: async ({ driver, clock }) => {
      const made = [];
      for (let index = 0; index < 3; index += 1) {
        made.push(await jobIn(driver, 'dead', { queue: 'a' }));
        await clock.advance(10);
      }
      const ids = made.map((job) => job.id).reverse();
      const olderThan = clock.now();
      expect(await driver.purge({ states: ['dead'], olderThan, ids, limit: 2 })).toBe(2);
      expect((await driver.list()).jobs.map((job) => job.id)).toEqual([made[2]?.id]);
      expect(await driver.purge({ states: ['dead'], olderThan, ids, limit: 2 })).toBe(1);
    },
  },
  {
    title: `purge without a limit removes at most DEFAULT_PURGE_LIMIT (${DEFAULT_PURGE_LIMIT}) rows; calling again removes the rest`,
    timeoutMs: 120_000,
    run: async ({ driver, clock }) => {
      await completedRows(driver, 'bulk', DEFAULT_PURGE_LIMIT + 3);
      await clock.advance(1);
      const request = { states: ['completed' as const], olderThan: clock.now() };
      expect(await driver.purge(request)).toBe(DEFAULT_PURGE_LIMIT);
      expect(await driver.purge(request)).toBe(3);
      expect(await driver.purge(request)).toBe(0);
      expect(await driver.stats()).toEqual([]);
    },
  },
  {
    title: `purge with a limit that is not an integer in 1..${MAX_PURGE_LIMIT} answers JOB_INVALID naming limit and removes nothing`,
    run: async ({ driver, clock }) => {
      const done = await jobIn(driver, 'completed');
      await clock.advance(1);
      const olderThan = clock.now();
      for (const limit of [0, -1, 1.5, MAX_PURGE_LIMIT + 1, Number.NaN, '5', null]) {
        await expectRefusal(
          driver.purge({ states: ['completed'], olderThan, limit: limit as number }),
          'JOB_INVALID',
          { field: 'limit' },
        );
      }
      expect((await driver.get(done.id))?.state).toBe('completed');
      expect(await driver.purge({ states: ['completed'], olderThan, limit: MAX_PURGE_LIMIT })).toBe(
        1,
      );
    },
  },
  {
    title:
      'purgeExpired with a limit removes at most that many expired events and answers the exact count',
    run: async ({ driver, clock }) => {
      for (const ttl of [100, 200, 300, 400, 500])
        await driver.events.publish('short', ttl, { ttl });
      const kept = await driver.events.publish('long', 0, { ttl: 10_000 });
      await clock.advance(1_000);
      expect(await driver.events.purgeExpired({ limit: 2 })).toBe(2);
      expect(await driver.events.purgeExpired({ limit: 2 })).toBe(2);
      expect(await driver.events.purgeExpired({ limit: 2 })).toBe(1);
      expect(await driver.events.purgeExpired({ limit: 2 })).toBe(0);
      expect(await driver.events.list()).toEqual([kept]);
    },
  },
  {
    title: `purgeExpired with a limit that is not an integer in 1..${MAX_PURGE_LIMIT} answers JOB_INVALID naming limit and removes nothing`,
    run: async ({ driver, clock }) => {
      await driver.events.publish('short', 1, { ttl: 100 });
      await clock.advance(200);
      for (const limit of [0, -3, 2.5, MAX_PURGE_LIMIT + 1, Number.POSITIVE_INFINITY, '1']) {
        await expectRefusal(driver.events.purgeExpired({ limit: limit as number }), 'JOB_INVALID', {
          field: 'limit',
        });
      }
      expect(await driver.events.purgeExpired({ limit: MAX_PURGE_LIMIT })).toBe(1);
    },
  },
];
