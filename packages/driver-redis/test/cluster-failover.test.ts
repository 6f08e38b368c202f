import { setTimeout as sleep } from 'node:timers/promises';
import { createClient, createWorker, type Driver, defineJob } from '@berth/core';
import {
  pollUntil,
  type RedisCluster,
  type RedisClusterNode,
  startRedisCluster,
} from '@berth/test-servers';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRedisDriver } from '../src/index.js';
import { dropClusterPrefix } from './cluster-factory.js';
import { freshPrefix } from './redis-factory.js';

// A private cluster of 3 masters + 3 replicas, node timeout 3 s: the master serving a prefix's
// slot is SIGKILLed and its replica takes over.
let cluster: RedisCluster;

beforeAll(async () => {
  cluster = await startRedisCluster();
}, 90_000);

afterAll(async () => {
  await cluster?.stop();
});

/** Runs `call` on the node at `port` over a connection of its own. */
async function onNode<T>(port: number, call: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis({ port, lazyConnect: true, maxRetriesPerRequest: 0 });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return await call(redis);
  } finally {
    redis.disconnect();
  }
}

/** The master serving every key of `prefix`. */
async function masterOfPrefix(prefix: string): Promise<RedisClusterNode> {
  const first = cluster.nodes.find((node) => node.running());
  if (first === undefined) throw new Error('no node runs');
  const slot = await onNode(first.port, (redis) => redis.cluster('KEYSLOT', `{${prefix}}:x`));
  return cluster.masterOf(Number(slot));
}

/** Brings a killed node back (it rejoins as a replica) and waits for the cluster to settle. */
async function heal(node: RedisClusterNode): Promise<void> {
  await node.start();
  await cluster.settled(60_000);
}

it('the wake subscriber moves off a killed node, wakes every listener once, and hears later changes', async () => {
  const prefix = freshPrefix();
  const driver = createRedisDriver({ cluster: cluster.startup, prefix });
  const woken: string[] = [];
  try {
    if (driver.subscribe === undefined) throw new Error('the redis driver offers subscribe');
    const unsubscribe = await driver.subscribe(['a', 'b'], (queue) => woken.push(queue));
    await driver.enqueue({ name: 'x', queue: 'a' });
    await pollUntil(() => woken.includes('a'), { what: 'the first wake-up', withinMs: 10_000 });

    // The node the subscriber listens on: the one with a pub/sub client on the channel.
    const channel = `{${prefix}}:wake`;
    const listening = [];
    for (const node of cluster.nodes) {
      const subscribers = await onNode(node.port, (redis) =>
        redis.call('PUBSUB', 'NUMSUB', channel),
      );
      if ((subscribers as [string, number])[1] > 0) listening.push(node);
    }
    expect(listening).toHaveLength(1);
    const node = listening[0] as RedisClusterNode;
    woken.length = 0;
    await node.crash();
    await pollUntil(() => woken.length >= 2, {
      what: 'the wake-up of every queue after resubscribing',
      withinMs: 30_000,
    });
    expect(woken.sort()).toEqual(['a', 'b']);

    await cluster.settled(60_000);
    woken.length = 0;
    // The killed node may have served the prefix's slot: until the driver's slot map names the new
    // master (refreshed each second), a call answers DRIVER_UNAVAILABLE, as during the failover.
    await pollUntil(
      () =>
        driver.enqueue({ name: 'x', queue: 'b', idempotencyKey: 'after-move' }).then(
          () => true,
          () => false,
        ),
      { what: 'an enqueue acknowledged after the move', withinMs: 30_000 },
    );
    await pollUntil(() => woken.includes('b'), {
      what: 'a wake-up after the move',
      withinMs: 10_000,
    });
    expect(woken).toEqual(['b']);
    await unsubscribe();
    await heal(node);
  } finally {
    await driver.close();
    await dropClusterPrefix(cluster, prefix);
  }
}, 120_000);

/** Enqueues with an idempotency key until it is acknowledged: a retry never makes a second job. */
async function enqueueSurely(driver: Driver, key: string): Promise<string> {
  for (;;) {
    try {
      const { id } = await driver.enqueue({ name: 'cluster.work', idempotencyKey: key });
      return id;
    } catch {
      await sleep(50);
    }
  }
}

/**
 * Acknowledged means held by the replica too (`durability`): Redis Cluster replicates
 * asynchronously, and without it a master starved past the node timeout on a loaded box is
 * replaced while it still acknowledges writes, which the failover then drops (a full run lost all
 * 200 enqueues made before the kill that way). The README's loss window measures that case.
 */
const DURABLE = { replicas: 1, timeoutMs: 5_000 } as const;

it('a worker rides out the kill of the master serving its prefix: every acknowledged job completes exactly once', async () => {
  const prefix = freshPrefix();
  const driver = createRedisDriver({ cluster: cluster.startup, prefix, durability: DURABLE });
  const runs = new Map<string, number>();
  const completed = new Map<string, number>();
  const work = defineJob<Record<string, never>>({
    name: 'cluster.work',
    async run({ job }) {
      runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
      await sleep(10);
    },
  });
  const client = createClient({ driver, jobs: [work] });
  const worker = createWorker({ driver, jobs: [work], concurrency: 4, visibilityTimeoutMs: 4_000 });
  worker.on('completed', ({ job }) => completed.set(job.id, (completed.get(job.id) ?? 0) + 1));
  const ids: string[] = [];
  try {
    for (let i = 0; i < 200; i += 1) ids.push((await client.enqueue(work, {})).id);
    await worker.start();
    await pollUntil(() => completed.size >= 50, {
      what: 'the first completions',
      withinMs: 30_000,
    });

    const master = await masterOfPrefix(prefix);
    // A producer keeps going through the failover, each enqueue retried until acknowledged.
    const producer = (async () => {
      for (let i = 0; i < 100; i += 1) {
        ids.push(await enqueueSurely(driver, `during-${i}`));
        await sleep(5);
      }
    })();
    const killedAt = Date.now();
    await master.crash();
    let firstSuccess: number | undefined;
    while (firstSuccess === undefined) {
      firstSuccess = await driver.stats().then(
        () => Date.now(),
        () => undefined,
      );
      if (firstSuccess === undefined) await sleep(25);
    }
    // The promoted replica has no replica of its own until the killed master is back as one:
    // until then no durable write is confirmed, so the producer waits for the heal.
    await heal(master);
    await producer;
    console.log(
      `cluster failover: first successful call ${firstSuccess - killedAt} ms after the kill`,
    );

    const unique = [...new Set(ids)];
    let pending: string[] = [];
    await pollUntil(
      async () => {
        const records = await Promise.all(unique.map((id) => driver.get(id).catch(() => null)));
        // What is left, so a run that gives up says which jobs and how (missing: lost).
        pending = records.flatMap((record, index) =>
          record?.state === 'completed'
            ? []
            : [
                `${unique[index]}: ${
                  record === null
                    ? 'unreadable'
                    : record === undefined
                      ? 'missing'
                      : `${record.state}, claim ${record.claim}, runs ${runs.get(record.id) ?? 0}`
                }`,
              ],
        );
        return pending.length === 0;
      },
      {
        what: 'every acknowledged job completed',
        withinMs: 90_000,
        detail: () => `(left: ${pending.length}, e.g. ${pending.slice(0, 5).join('; ')})`,
      },
    );
    const twice = unique.filter((id) => (completed.get(id) ?? 0) > 1);
    const reRun = unique.filter((id) => (runs.get(id) ?? 0) > 1).length;
    console.log(`cluster failover: ${unique.length} jobs, ${reRun} handler runs repeated`);
    expect(unique.length).toBeGreaterThanOrEqual(300);
    expect(twice).toEqual([]);
    await worker.stop();
  } finally {
    await worker.stop().catch(() => {});
    await driver.close();
    await dropClusterPrefix(cluster, prefix);
  }
}, 180_000);
