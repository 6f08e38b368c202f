import { randomUUID } from 'node:crypto';
import type { Driver } from '@berth/core';
import { describe, expect, it } from 'vitest';
import { createRedisDriver } from '../src/index.js';
import { redisDriver } from './redis-factory.js';

const JOBS = 1_000;
const CLAIMERS = 8;

/** Claims and acks in batches until the queue is empty; answers the ids it acked. */
async function drain(driver: Driver, workerId: string): Promise<string[]> {
  const acked: string[] = [];
  for (;;) {
    const claimed = await driver.claim({
      queues: ['work'],
      limit: 10,
      workerId,
      visibilityTimeoutMs: 60_000,
    });
    if (claimed.length === 0) return acked;
    const landed = await driver.ackMany(
      claimed.map((job) => ({
        fence: { jobId: job.id, workerId, claim: job.claim },
        result: { by: workerId },
      })),
    );
    expect(landed.every(Boolean)).toBe(true);
    acked.push(...claimed.map((job) => job.id));
  }
}

describe('redis driver under concurrent claimers', () => {
  it('8 claimers on separate connections over one prefix ack each of 1,000 jobs exactly once', async () => {
    const { driver, url, prefix, dispose } = await redisDriver();
    const claimers = Array.from({ length: CLAIMERS }, () => createRedisDriver({ url, prefix }));
    try {
      const ids = Array.from({ length: JOBS }, () => randomUUID());
      for (let at = 0; at < JOBS; at += 250) {
        await driver.enqueueMany(
          ids.slice(at, at + 250).map((id, index) => ({
            id,
            name: 'work',
            queue: 'work',
            priority: index % 3,
          })),
        );
      }
      const acked = (
        await Promise.all(claimers.map((claimer, index) => drain(claimer, `worker-${index}`)))
      ).flat();
      expect(acked).toHaveLength(JOBS);
      expect(new Set(acked)).toEqual(new Set(ids));
      const [stats] = await driver.stats();
      expect(stats?.counts.completed).toBe(JOBS);
      expect(stats?.counts.running).toBe(0);
      expect(stats?.counts.ready).toBe(0);
    } finally {
      await Promise.all(claimers.map((claimer) => claimer.close()));
      await dispose();
    }
  }, 60_000);
});
