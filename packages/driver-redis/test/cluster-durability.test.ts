import { randomUUID } from 'node:crypto';
import { isBerthError } from '@berth/core';
import { type RedisCluster, type RedisClusterNode, startRedisCluster } from '@berth/test-servers';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisDriver } from '../src/index.js';
import { dropClusterPrefix } from './cluster-factory.js';
import { freshPrefix } from './redis-factory.js';

let cluster: RedisCluster;
beforeAll(async () => {
  cluster = await startRedisCluster();
}, 120_000);
afterAll(() => cluster?.stop());

/** Runs one call on the node at `port` over a connection of its own. */
async function onNode<T>(port: number, call: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 0 });
  redis.on('error', () => {});
  try {
    return await call(redis);
  } finally {
    redis.disconnect();
  }
}

/** The master holding every key of `prefix` (they share the `{prefix}` hash tag) and its replica. */
async function slotNodes(
  prefix: string,
): Promise<{ master: RedisClusterNode; replica: RedisClusterNode }> {
  const first = cluster.nodes[0];
  if (first === undefined) throw new Error('the cluster has no nodes');
  const slot = await onNode(first.port, (redis) => redis.cluster('KEYSLOT', `{${prefix}}:`));
  const master = await cluster.masterOf(Number(slot));
  const replicas = await onNode(master.port, (redis) => redis.info('replication'));
  const port = Number(/^slave0:ip=[^,]+,port=(\d+)/m.exec(replicas)?.[1]);
  const replica = cluster.nodes.find((node) => node.port === port);
  if (replica === undefined) throw new Error(`master :${master.port} reports no replica`);
  return { master, replica };
}

/** How many WAIT commands the node at `port` has run. */
const waitCalls = (port: number): Promise<number> =>
  onNode(port, async (redis) => {
    const stats = await redis.info('commandstats');
    return Number(/^cmdstat_wait:calls=(\d+)/m.exec(stats)?.[1] ?? 0);
  });

const durableDriver = (prefix: string) =>
  createRedisDriver({
    cluster: cluster.startup,
    prefix,
    durability: { replicas: 1, timeoutMs: 500 },
  });

describe('redis driver durability on a Redis Cluster (WAIT on the slot master)', () => {
  it('with the replica attached, writes are confirmed by the master of the prefix slot, and an enqueue, claim, ack cycle works', async () => {
    const prefix = freshPrefix();
    const driver = durableDriver(prefix);
    try {
      const { master } = await slotNodes(prefix);
      const before = await waitCalls(master.port);
      const { id } = await driver.enqueue({ name: 'job', queue: 'durable' });
      const many = await Promise.all(
        Array.from({ length: 10 }, () =>
          driver.enqueue({ name: 'job', queue: 'durable', id: randomUUID() }),
        ),
      );
      expect(new Set(many.map((result) => result.id)).size).toBe(10);
      // The WAITs ran where the writes did: on the master of the prefix's slot.
      expect(await waitCalls(master.port)).toBeGreaterThan(before);
      const claimed = await driver.claim({
        queues: ['durable'],
        workerId: 'w',
        visibilityTimeoutMs: 10_000,
        limit: 11,
      });
      expect(claimed).toHaveLength(11);
      const job = claimed.find((row) => row.id === id);
      if (job === undefined) throw new Error('the first job was not claimed');
      const fence = { jobId: job.id, workerId: job.claimedBy, claim: job.claim };
      expect(await driver.ack(fence, { result: 'done' })).toBe(true);
      expect(await driver.get(id)).toMatchObject({ state: 'completed' });
    } finally {
      await driver.close();
      await dropClusterPrefix(cluster, prefix);
    }
  });

  it('with the replica of the slot master frozen, an enqueue answers DRIVER_UNAVAILABLE with replicas { wanted: 1, confirmed: 0 }, and works again once it thaws', async () => {
    const prefix = freshPrefix();
    const driver = durableDriver(prefix);
    const { replica } = await slotNodes(prefix);
    try {
      await driver.enqueue({ name: 'job', queue: 'durable' });
      replica.signal('SIGSTOP');
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
      // Reads wait for nobody.
      expect(await driver.get(id)).toMatchObject({ id });
      replica.signal('SIGCONT');
      expect(await driver.enqueue({ name: 'job', queue: 'durable', id })).toMatchObject({
        id,
        deduped: true,
      });
      const fresh = await driver.enqueue({ name: 'job', queue: 'durable' });
      expect(fresh.deduped).toBe(false);
    } finally {
      replica.signal('SIGCONT');
      await driver.close();
      await dropClusterPrefix(cluster, prefix);
    }
  });
});
