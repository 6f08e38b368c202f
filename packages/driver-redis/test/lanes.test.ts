import { createManualClock } from '@berth/core';
import { serverUrl } from '@berth/test-servers';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keysFor, laneOf } from '../src/keys.js';
import { redisDriver } from './redis-factory.js';

const T0 = Date.UTC(2026, 0, 1);

let admin: Redis;

beforeAll(async () => {
  admin = new Redis(await serverUrl('redis'));
});

afterAll(() => {
  admin.disconnect();
});

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
      expect((await admin.smembers(keys.names('q'))).sort()).toEqual(['a', 'b']);
      expect(await admin.smembers(keys.names('other'))).toEqual(['c']);
      expect(await admin.zcard(keys.dueName(laneOf('q', 'a')))).toBe(1);
      expect(await admin.zcard(keys.timersName(laneOf('q', 'a')))).toBe(1);

      clock.advance(1_000);
      const claimed = await driver.claim({
        queues: ['q'],
        workerId: 'w',
        visibilityTimeoutMs: 60_000,
        limit: 10,
      });
      expect(claimed.map((job) => job.payload)).toEqual([2, 1, 3]);
      expect(await admin.zcard(keys.leasesName(laneOf('q', 'a')))).toBe(2);
      expect(await admin.zcard(keys.leasesName(laneOf('q', 'b')))).toBe(1);

      expect(await driver.ackMany(claimed.map((job) => ({ fence: fenceOf(job) })))).toEqual([
        true,
        true,
        true,
      ]);
      expect(await admin.zcard(keys.leasesName(laneOf('q', 'a')))).toBe(0);
      clock.advance(1);
      await driver.purge({ states: ['completed'], olderThan: clock.now() });
      expect(await admin.exists(keys.names('q'))).toBe(0);
      expect(await admin.smembers(keys.names('other'))).toEqual(['c']);
    } finally {
      await dispose();
    }
  });
});

function fenceOf(job: { id: string; claimedBy: string; claim: number }) {
  return { jobId: job.id, workerId: job.claimedBy, claim: job.claim };
}
