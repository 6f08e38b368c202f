import { randomUUID } from 'node:crypto';
import { isBerthError } from '@berth/core';
import {
  PRIVATE_START_HOOK_MS,
  type RedisReplicaSet,
  startRedisReplicaSet,
} from '@berth/test-servers';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisDriver } from '../src/index.js';
import { freshPrefix } from './redis-factory.js';

let set: RedisReplicaSet;
beforeAll(async () => {
  set = await startRedisReplicaSet();
}, PRIVATE_START_HOOK_MS);
afterAll(() => set.dispose());

/** How many WAIT commands the primary has run. */
async function waitCalls(): Promise<number> {
  const redis = new Redis({ host: '127.0.0.1', port: set.primary.port });
  try {
    const stats = await redis.info('commandstats');
    return Number(/^cmdstat_wait:calls=(\d+)/m.exec(stats)?.[1] ?? 0);
  } finally {
    redis.disconnect();
  }
}

const durableDriver = (prefix = freshPrefix()) =>
  createRedisDriver({
    sentinels: set.sentinelAddresses,
    name: set.name,
    prefix,
    durability: { replicas: 1, timeoutMs: 500 },
  });

describe('redis driver durability (WAIT after every write)', () => {
  it('with the replica attached, writes are confirmed and answer as without durability', async () => {
    const driver = durableDriver();
    try {
      const { id } = await driver.enqueue({ name: 'job', queue: 'durable' });
      // Writes made at once share one WAIT (group commit); each still gets its own answer.
      const waitsBefore = await waitCalls();
      const many = await Promise.all(
        Array.from({ length: 20 }, () =>
          driver.enqueue({ name: 'job', queue: 'durable', id: randomUUID() }),
        ),
      );
      expect(new Set(many.map((result) => result.id)).size).toBe(20);
      const waits = (await waitCalls()) - waitsBefore;
      console.info(`20 concurrent enqueues sent ${waits} WAIT`);
      expect(waits).toBeGreaterThanOrEqual(1);
      expect(waits).toBeLessThanOrEqual(2);
      const claimed = await driver.claim({
        queues: ['durable'],
        workerId: 'w',
        visibilityTimeoutMs: 10_000,
        limit: 21,
      });
      expect(claimed).toHaveLength(21);
      const job = claimed.find((row) => row.id === id);
      if (job === undefined) throw new Error('the first job was not claimed');
      const fence = { jobId: job.id, workerId: job.claimedBy, claim: job.claim };
      expect(await driver.ack(fence, { result: 'done' })).toBe(true);
      expect(await driver.get(id)).toMatchObject({ state: 'completed' });
    } finally {
      await driver.close();
    }
  });

  it('with the replica frozen, an enqueue answers DRIVER_UNAVAILABLE saying how many replicas confirmed', async () => {
    const driver = durableDriver();
    try {
      await driver.enqueue({ name: 'job', queue: 'durable' });
      set.replicas[0]?.signal('SIGSTOP');
      const id = randomUUID();
      const refused = await driver
        .enqueue({ name: 'job', queue: 'durable', id })
        .catch((error: unknown) => error);
      expect(isBerthError(refused, 'DRIVER_UNAVAILABLE'), String(refused)).toBe(true);
      if (!isBerthError(refused, 'DRIVER_UNAVAILABLE')) return;
      expect(refused.meta).toMatchObject({
        driver: 'redis',
        operation: 'enqueue',
        replicas: { wanted: 1, confirmed: 0 },
      });
      expect(refused.detail).toMatch(/may or may not survive a failover/);
      // Reads wait for nobody.
      expect(await driver.get(id)).toMatchObject({ id });
    } finally {
      set.replicas[0]?.signal('SIGCONT');
      await driver.close();
    }
  });

  it('a deduplicated retry from a new connection is confirmed only once the replicas hold the original', async () => {
    const prefix = freshPrefix();
    const first = durableDriver(prefix);
    const retry = durableDriver(prefix);
    const id = randomUUID();
    try {
      await retry.stats();
      set.replicas[0]?.signal('SIGSTOP');
      const refused = await first
        .enqueue({ name: 'job', queue: 'durable', id })
        .catch((error: unknown) => error);
      expect(isBerthError(refused, 'DRIVER_UNAVAILABLE')).toBe(true);
      // The retry writes nothing of its own: its WAIT must still cover the original write.
      const again = await retry
        .enqueue({ name: 'job', queue: 'durable', id })
        .catch((error: unknown) => error);
      expect(isBerthError(again, 'DRIVER_UNAVAILABLE') && again.meta.replicas).toEqual({
        wanted: 1,
        confirmed: 0,
      });
      set.replicas[0]?.signal('SIGCONT');
      expect(await retry.enqueue({ name: 'job', queue: 'durable', id })).toMatchObject({
        id,
        deduped: true,
      });
    } finally {
      set.replicas[0]?.signal('SIGCONT');
      await first.close();
      await retry.close();
    }
  });
});
