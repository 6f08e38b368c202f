import { createManualClock } from '@berth/core';
import { describe, expect, it } from 'vitest';
import { keysFor, laneOf } from '../src/keys.js';
import { adminRedis, redisDriver } from './redis-factory.js';

const T0 = Date.UTC(2026, 0, 1);

const admin = adminRedis();

describe('redis rows wait in one claim lane per (queue, name)', () => {
  it('a queue names every job name it holds, a claim without names takes from each lane in claim order, and a purge that empties the queue forgets them', async () => {
    const clock = createManualClock(T0);
    const { driver, prefix, dispose } = await redisDriver({ clock });
    try {
      const keys = keysFor(prefix);
      await driver.enqueueMany([
        { name: 'a', queue: 'q', payload: 1 },
        { name: 'b', queue: 'q', payload: 2, priority: 5 },
        { name: 'a', queue: 'q', payload: 3, runAt: T0 + 1_000 },
        { name: 'c', queue: 'other', payload: 4 },
      ]);
      expect((await admin().smembers(keys.names('q'))).sort()).toEqual(['a', 'b']);
      expect(await admin().smembers(keys.names('other'))).toEqual(['c']);
      expect(await admin().zcard(keys.dueName(laneOf('q', 'a')))).toBe(1);
      expect(await admin().zcard(keys.waitingName(laneOf('q', 'a')))).toBe(1);

      clock.advance(1_000);
      const claimed = await driver.claim({
        queues: ['q'],
        workerId: 'w',
        visibilityTimeoutMs: 60_000,
        limit: 10,
      });
      expect(claimed.map((job) => job.payload)).toEqual([2, 1, 3]);
      expect(await admin().zcard(keys.leasesName(laneOf('q', 'a')))).toBe(2);
      expect(await admin().zcard(keys.leasesName(laneOf('q', 'b')))).toBe(1);

      expect(await driver.ackMany(claimed.map((job) => ({ fence: fenceOf(job) })))).toEqual([
        true,
        true,
        true,
      ]);
      expect(await admin().zcard(keys.leasesName(laneOf('q', 'a')))).toBe(0);
      clock.advance(1);
      await driver.purge({ states: ['completed'], olderThan: clock.now() });
      expect(await admin().exists(keys.names('q'))).toBe(0);
      expect(await admin().smembers(keys.names('other'))).toEqual(['c']);
    } finally {
      await dispose();
    }
  });
  it("stats' oldest ready row comes from every priority of every lane and passes over a lapsed lease moved there", async () => {
    const clock = createManualClock(T0);
    const { driver, prefix, dispose } = await redisDriver({ clock });
    try {
      const claimOne = (workerId: string, visibilityTimeoutMs: number) =>
        driver.claim({ queues: ['q'], workerId, visibilityTimeoutMs, limit: 1 });
      const { id: lapsed } = await driver.enqueue({ name: 'a', queue: 'q' });
      expect((await claimOne('w1', 1_000)).map((job) => job.id)).toEqual([lapsed]);
      clock.advance(500);
      await driver.enqueueMany([
        { name: 'b', queue: 'q', priority: 5 },
        { name: 'a', queue: 'q', payload: 'oldest ready' },
      ]);
      clock.advance(1_500);
      // This claim moves the lapsed lease into its lane's due set and takes the priority-5 row.
      expect((await claimOne('w2', 60_000)).map((job) => job.name)).toEqual(['b']);
      const keys = keysFor(prefix);
      expect(await admin().zcard(keys.dueName(laneOf('q', 'a')))).toBe(2);

      const [stats] = await driver.stats();
      expect(stats?.counts).toMatchObject({ ready: 1, running: 2 });
      expect(stats?.oldestReadyAgeMs).toBe(1_500);

      await driver.enqueue({ name: 'c', queue: 'q', priority: -3, runAt: T0 + 100 });
      expect((await driver.stats())[0]?.oldestReadyAgeMs).toBe(1_900);
    } finally {
      await dispose();
    }
  });
});

function fenceOf(job: { id: string; claimedBy: string; claim: number }) {
  return { jobId: job.id, workerId: job.claimedBy, claim: job.claim };
}
