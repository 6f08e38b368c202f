import { createManualClock } from '@berth/core';
import { serverUrl } from '@berth/test-servers';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { keysFor, laneOf } from '../src/keys.js';
import { redisDriver } from './redis-factory.js';

const T0 = Date.UTC(2026, 0, 1);

describe('redis lapsed leases a claim moved into the claimable set', () => {
  it('leave it when their holder acks or extends them, so no later claim hands them out again', async () => {
    const clock = createManualClock(T0);
    const { driver, prefix, dispose } = await redisDriver({ clock });
    const admin = new Redis(await serverUrl('redis'));
    try {
      await driver.enqueueMany(['a', 'b', 'c'].map((tag) => ({ name: 'job', payload: { tag } })));
      const held = await driver.claim({
        queues: ['default'],
        workerId: 'w1',
        visibilityTimeoutMs: 1_000,
        limit: 3,
      });
      expect(held).toHaveLength(3);
      clock.advance(2_000);

      // One claim moves all three lapsed leases into the claimable set and takes the first.
      const [taken] = await driver.claim({
        queues: ['default'],
        workerId: 'w2',
        visibilityTimeoutMs: 60_000,
        limit: 1,
      });
      expect(taken?.id).toBe(held[0]?.id);
      const [, acked, extended] = held;
      if (acked === undefined || extended === undefined) throw new Error('three rows claimed');
      const fence = (job: typeof acked) => ({
        jobId: job.id,
        workerId: job.claimedBy,
        claim: job.claim,
      });

      // Their holder still holds the other two (no one took them again): it settles both.
      expect(await driver.ack(fence(acked))).toBe(true);
      expect(await driver.extend(fence(extended), 60_000)).toBe(true);

      const later = await driver.claim({
        queues: ['default'],
        workerId: 'w3',
        visibilityTimeoutMs: 60_000,
        limit: 10,
      });
      expect(later).toEqual([]);
      expect((await driver.get(acked.id))?.state).toBe('completed');
      expect(await driver.get(extended.id)).toMatchObject({ state: 'running', claimedBy: 'w1' });
      const keys = keysFor(prefix);
      expect(await admin.zcard(keys.dueName(laneOf('default', 'job')))).toBe(0);
      expect(await admin.zcard(keys.leasesName(laneOf('default', 'job')))).toBe(2);
      // The extended row keeps its claim note, so a lost claim could still give it back.
      expect(await admin.hget(keys.claims('w1'), extended.id)).toMatch(/:ready:1$/);
      expect(await admin.hget(keys.claims('w1'), acked.id)).toBeNull();
    } finally {
      admin.disconnect();
      await dispose();
    }
  });
});
