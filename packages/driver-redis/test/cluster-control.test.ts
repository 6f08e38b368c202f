import { isBerthError } from '@berth/core';
import { cutProxy, eventually, type RedisCluster, startRedisCluster } from '@berth/test-servers';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openCluster } from '../src/cluster.js';
import { createRedisDriver } from '../src/index.js';
import { shardPrefix } from './cluster-prefix.js';

// The private cluster the cluster kit's restart case drives (tooling/test-servers), on its own.
let cluster: RedisCluster;

beforeAll(async () => {
  cluster = await startRedisCluster({ replicasPerMaster: 0 });
}, 90_000);

afterAll(async () => {
  await cluster?.stop();
});

it('settled() gives up at its deadline, naming the cluster, when a node accepts connections but never answers', async () => {
  const [node] = cluster.nodes;
  if (node === undefined) throw new Error('no node');
  // A stopped process still has its port: the kernel completes the connection, nothing answers.
  node.signal('SIGSTOP');
  try {
    await expect(cluster.settled(1_000)).rejects.toThrow(/did not answer within 1000 ms/);
  } finally {
    node.signal('SIGCONT');
  }
  await cluster.settled();
}, 60_000);

/** Runs `use` with a client of the node at `port` alone (no cluster routing), then drops it. */
async function withNode<T>(port: number, use: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis({ port, lazyConnect: true, maxRetriesPerRequest: 0 });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return await use(redis);
  } finally {
    redis.disconnect();
  }
}

/** `count` keys whose slots the node at `port` serves. */
function keysOn(port: number, count: number): Promise<string[]> {
  return withNode(port, async (redis) => {
    const own = (await redis.cluster('SLOTS')).filter(([, , master]) => master?.[1] === port);
    const keys: string[] = [];
    for (let n = 0; keys.length < count; n += 1) {
      const slot = Number(await redis.cluster('KEYSLOT', `h1-${n}`));
      if (own.some(([from, to]) => from <= slot && slot <= to)) keys.push(`h1-${n}`);
    }
    return keys;
  });
}

it('stop() ends a node that is writing its initial append-only file, which refuses the first SIGTERM', async () => {
  const [node] = cluster.nodes;
  if (node === undefined) throw new Error('no node');
  await withNode(node.port, async (redis) => {
    for (const key of await keysOn(node.port, 4)) await redis.set(key, 'x');
    // What a replica does after a full sync: append-only turned on anew, its first file written
    // by a child, here slowed to half a second a key (a test-only server setting).
    await redis.config('SET', 'rdb-key-save-delay', '500000');
    await redis.config('SET', 'appendonly', 'no');
    await redis.config('SET', 'appendonly', 'yes');
    expect(await redis.info('persistence')).toMatch(/aof_rewrite_in_progress:1/);
  });
  await node.stop();
  expect(node.running()).toBe(false);
  await node.start();
  await cluster.settled();
}, 30_000);

it('a master whose append-only file passes 64 MB forks no rewrite of it: the kit scale case writes ~66 MB to one master just before it measures', async () => {
  const [node] = cluster.nodes;
  if (node === undefined) throw new Error('no node');
  await withNode(node.port, async (redis) => {
    const forks = async () => Number(/total_forks:(\d+)/.exec(await redis.info('stats'))?.[1]);
    const before = await forks();
    const keys = await keysOn(node.port, 9);
    for (const key of keys) await redis.set(key, 'x'.repeat(8 * 1024 * 1024));
    for (const key of keys) await redis.del(key);
    // The server checks for a due rewrite ten times a second (hz 10).
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await forks()).toBe(before);
    // Past the default 64 MB minimum (67,108,864 bytes), so a default server would have forked.
    expect(await redis.info('persistence')).toMatch(/aof_current_size:(6[7-9]|[7-9]\d)\d{6}\r/);
  });
}, 30_000);

it('the cluster factory hands out prefixes whose slots share one master: the scale case compares two of its stores', async () => {
  const [node] = cluster.nodes;
  if (node === undefined) throw new Error('no node');
  await withNode(node.port, async (redis) => {
    const masters = new Set<number>();
    for (let made = 0; made < 6; made += 1) {
      const slot = Number(await redis.cluster('KEYSLOT', `{${await shardPrefix(cluster)}}:job`));
      masters.add((await cluster.masterOf(slot)).port);
    }
    expect(masters.size).toBe(1);
  });
}, 30_000);

it("a driver's check() answers from the master holding its prefix's slot: refused while that master alone is cut off, answering again once it is back", async () => {
  const prefix = await shardPrefix(cluster);
  const [home] = cluster.nodes;
  if (home === undefined) throw new Error('no node');
  const homePort = await withNode(home.port, async (redis) => {
    const slot = Number(await redis.cluster('KEYSLOT', `{${prefix}}:`));
    const range = (await redis.cluster('SLOTS')).find(([from, to]) => from <= slot && slot <= to);
    return range?.[2]?.[1];
  });
  const proxies = await Promise.all(cluster.nodes.map((node) => cutProxy(node.port)));
  const natMap = Object.fromEntries(
    cluster.nodes.map((node, index) => [
      node.address,
      { host: '127.0.0.1', port: proxies[index]?.port ?? 0 },
    ]),
  );
  const { redis } = openCluster(
    proxies.map((proxy) => ({ host: '127.0.0.1', port: proxy.port })),
    10_000,
    { natMap },
  );
  redis.on('error', () => {});
  const driver = createRedisDriver({ redis, prefix });
  const homeProxy = proxies[cluster.nodes.findIndex((node) => node.port === homePort)];
  if (homeProxy === undefined) throw new Error(`no node serves the slot of {${prefix}}`);
  try {
    await driver.check();
    // The other two masters still answer: a PING would reach one of them and pass.
    homeProxy.refuse();
    const answers: string[] = [];
    for (let n = 0; n < 6; n += 1) {
      answers.push(
        await driver.check().then(
          () => 'answered',
          (error: unknown) =>
            isBerthError(error, 'DRIVER_UNAVAILABLE') ? 'DRIVER_UNAVAILABLE' : String(error),
        ),
      );
    }
    expect(answers).toEqual(Array(6).fill('DRIVER_UNAVAILABLE'));
    homeProxy.accept();
    await eventually(() => driver.check());
  } finally {
    await driver.close();
    redis.disconnect();
    await Promise.all(proxies.map((proxy) => proxy.close()));
  }
}, 60_000);
