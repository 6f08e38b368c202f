import { describe, expect, it } from 'vitest';
import { keysFor } from '../src/keys.js';
import { adminRedis, redisDriver } from './redis-factory.js';

const admin = adminRedis();

describe('redis settled rows', () => {
  it('an acked row keeps its last claimedBy and visibleAt in its hash, and get and list answer neither', async () => {
    const { driver, prefix, dispose } = await redisDriver();
    try {
      const { id } = await driver.enqueue({ name: 'job', payload: 1 });
      const [job] = await driver.claim({
        queues: ['default'],
        workerId: 'w',
        visibilityTimeoutMs: 60_000,
        limit: 1,
      });
      if (job === undefined) throw new Error('nothing claimed');
      expect(
        await driver.ackMany([{ fence: { jobId: id, workerId: 'w', claim: job.claim } }]),
      ).toEqual([true]);
      expect(await admin().hget(keysFor(prefix).job(id), 'claimedBy')).toBe('w');

      const got = await driver.get(id);
      expect(got?.state).toBe('completed');
      expect(got).not.toHaveProperty('claimedBy');
      expect(got).not.toHaveProperty('visibleAt');
      const [listed] = (await driver.list({ state: 'completed', limit: 1 })).jobs;
      expect(listed).not.toHaveProperty('claimedBy');
      expect(listed).not.toHaveProperty('visibleAt');
    } finally {
      await dispose();
    }
  });
});
