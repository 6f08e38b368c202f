import { setTimeout as sleep } from 'node:timers/promises';
import type { DriverFactory, ServerControl, SiblingContext } from '@berth/conformance';
import type { Driver } from '@berth/core';
import { type CutProxy, cutProxy, type RedisCluster, startRedisCluster } from '@berth/test-servers';
import { type Cluster, Redis } from 'ioredis';
import { openCluster } from '../src/cluster.js';
import { createRedisDriver } from '../src/index.js';
import { shardPrefix } from './cluster-prefix.js';
import { freshPrefix } from './redis-factory.js';

/** Deletes every key of `prefix` on every master of the cluster (its slot's master holds them). */
export async function dropClusterPrefix(cluster: RedisCluster, prefix: string): Promise<void> {
  await Promise.all(
    cluster.nodes
      .filter((node) => node.running())
      .map(async (node) => {
        const admin = new Redis({ port: node.port, lazyConnect: true, maxRetriesPerRequest: 1 });
        admin.on('error', () => {});
        try {
          await admin.connect();
          if (!(await admin.info('replication')).includes('role:master')) return;
          let cursor = '0';
          do {
            const [next, keys] = await admin.scan(cursor, 'MATCH', `{${prefix}}:*`, 'COUNT', 1_000);
            cursor = next;
            if (keys.length > 0) await admin.unlink(...keys);
          } while (cursor !== '0');
        } finally {
          admin.disconnect();
        }
      }),
  );
}

/**
 * Drivers on a private Redis Cluster (3 masters, 3 replicas), started by the first `cluster()`
 * (a test file calls it in a `beforeAll`, so no case's timeout pays for the start) or else on
 * first use; `stop` ends it. `factory` hands each case a driver given `cluster: [...]` on a fresh
 * prefix, every one on the same master (cluster-prefix.ts): group `scale` measures a small and a
 * big store from this factory side by side, and on two masters a master busy with one store
 * alone (a fork, a replica's sync, a dropped prefix freed) read as the backlog's cost (its calls
 * on the big store's master took 6-10x those on the other master in full runs). `serverFactory`
 * (group restart) opens each instance over proxies of its own to every node (ioredis' natMap maps
 * the addresses the nodes announce to them), so the control may restart the nodes one by one,
 * take the whole cluster away, or cut one instance off from every node.
 */
export function clusterFactory(): {
  factory: DriverFactory;
  serverFactory: DriverFactory;
  cluster: () => Promise<RedisCluster>;
  stop: () => Promise<void>;
} {
  let started: Promise<RedisCluster> | undefined;
  const open = () => {
    started ??= startRedisCluster();
    return started;
  };

  const factory: DriverFactory = async ({ clock, hooks, lifecycleRetention }) => {
    const cluster = await open();
    const nodes = cluster.startup;
    const prefix = await shardPrefix(cluster);
    const driver = createRedisDriver({ cluster: nodes, prefix, clock, hooks, lifecycleRetention });
    return {
      driver,
      sibling: async (context) => createRedisDriver({ ...context, cluster: nodes, prefix }),
      dispose: async () => {
        await driver.close();
        await dropClusterPrefix(cluster, prefix);
      },
    };
  };

  const serverFactory: DriverFactory = async ({ clock, hooks, lifecycleRetention }) => {
    const cluster = await open();
    const prefix = freshPrefix();
    const own = new Map<Driver, { proxies: readonly CutProxy[]; client: Cluster }>();
    const ownOf = (instance: Driver) => {
      const found = own.get(instance);
      if (found === undefined) throw new Error('this instance was not opened by the factory');
      return found;
    };
    const openInstance = async (context: SiblingContext) => {
      const proxies = await Promise.all(cluster.nodes.map((node) => cutProxy(node.port)));
      const natMap = Object.fromEntries(
        cluster.nodes.map((node, index) => [
          node.address,
          { host: '127.0.0.1', port: proxies[index]?.port ?? 0 },
        ]),
      );
      const { redis: client } = openCluster(
        proxies.map((proxy) => ({ host: '127.0.0.1', port: proxy.port })),
        10_000,
        { natMap },
      );
      client.on('error', () => {});
      const driver = createRedisDriver({ ...context, redis: client, prefix });
      own.set(driver, { proxies, client });
      return driver;
    };
    const every = () => [...own.values()].flatMap((instance) => instance.proxies);
    const server: ServerControl = {
      replayGraceMs: 0,
      // A cluster restarts node by node (SIGTERM: each flushes its append-only file), each once the
      // one before is back and in sync.
      restart: async () => {
        for (const node of cluster.nodes) {
          await node.stop();
          await node.start();
          await cluster.settled();
        }
      },
      outage: async (ms) => {
        for (const proxy of every()) proxy.refuse();
        await sleep(ms);
        for (const proxy of every()) proxy.accept();
      },
      freeze: async (instance) => {
        for (const proxy of ownOf(instance).proxies) proxy.freeze();
      },
      thaw: async (instance) => {
        await Promise.all(ownOf(instance).proxies.map((proxy) => proxy.thaw()));
      },
    };
    const driver = await openInstance({ clock, hooks, lifecycleRetention });
    return {
      driver,
      sibling: openInstance,
      server,
      dispose: async () => {
        await driver.close();
        for (const { client } of own.values()) client.disconnect();
        await Promise.all(every().map((proxy) => proxy.close()));
        await dropClusterPrefix(cluster, prefix);
      },
    };
  };

  const stop = async () => {
    if (started === undefined) return;
    await (await started).stop();
  };
  return { factory, serverFactory, cluster: open, stop };
}
