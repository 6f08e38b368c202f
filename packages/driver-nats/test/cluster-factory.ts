import { setTimeout as sleep } from 'node:timers/promises';
import type { DriverFactory, ServerControl, SiblingContext } from '@berth/conformance';
import type { Driver } from '@berth/core';
import {
  type CutProxy,
  cutProxy,
  type NatsCluster,
  natsServerBinary,
  startNatsCluster,
} from '@berth/test-servers';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { createNatsDriver } from '../src/index.js';
import { freshPrefix } from './nats-factory.js';

/**
 * A factory of drivers with `replicas: 3` on one private 3-node cluster of nats-server 2.10,
 * started by `start()` (a test file calls it in a `beforeAll`, so no case's timeout pays for the
 * start) or else on first use; `stop` ends it.
 *
 * Each case gets a driver over empty buckets of a prefix no other live driver uses. Making two
 * R3 streams costs about 0.7 s of cluster consensus (the whole kit would spend minutes on it), so
 * a prefix's buckets, made by the first driver on it, are emptied and reused by a later case.
 * Emptying purges both streams; a prefix is handed out again only once its streams are settled.
 */
/** Every stream a prefix's drivers make. */
const streamsOf = (prefix: string): string[] => [
  `KV_${prefix}_jobs`,
  `KV_${prefix}_aux`,
  `berth_${prefix}_lifecycle`,
];
/** The replay grace group restart runs with on the cluster (as on one server: small). */
const GRACE_MS = 1_500;
/** How long a purged prefix's replicas may take to apply the purge before it is not reused. */
const REPLICAS_CURRENT_MS = 5_000;

export function clusterFactory(): {
  factory: DriverFactory;
  serverFactory: DriverFactory;
  start: () => Promise<void>;
  stop: () => Promise<void>;
} {
  let started: Promise<{ cluster: NatsCluster; admin: NatsConnection }> | undefined;
  const free: string[] = [];
  const open = () => {
    started ??= (async () => {
      const cluster = await startNatsCluster({ binary: natsServerBinary('2.10').path });
      return { cluster, admin: await connect({ servers: [...cluster.urls] }) };
    })();
    return started;
  };

  /**
   * Whether both streams of `prefix` are settled within REPLICAS_CURRENT_MS: a leader, and every
   * replica `current` with no lag. The leader answers a purge before its followers apply it, and
   * after a rolling restart a stream may still be electing its leader: a driver handed a prefix
   * before then finds its first call unanswered.
   */
  const settled = async (admin: NatsConnection, prefix: string): Promise<boolean> => {
    const jsm = await jetstreamManager(admin);
    const streams = streamsOf(prefix);
    const deadline = Date.now() + REPLICAS_CURRENT_MS;
    while (Date.now() < deadline) {
      const infos = await Promise.all(streams.map((stream) => jsm.streams.info(stream))).catch(
        () => undefined,
      );
      const ready = infos?.every(
        (info) =>
          info.state.messages === 0 &&
          (info.cluster?.leader ?? '') !== '' &&
          (info.cluster?.replicas ?? []).every((peer) => peer.current && (peer.lag ?? 0) === 0),
      );
      if (ready === true) return true;
      await sleep(20);
    }
    return false;
  };

  /** Purges a prefix's streams; answers whether it may be handed out again. */
  const empty = async (admin: NatsConnection, prefix: string): Promise<boolean> => {
    const jsm = await jetstreamManager(admin);
    const streams = streamsOf(prefix);
    await Promise.all(streams.map((stream) => jsm.streams.purge(stream)));
    return settled(admin, prefix);
  };

  /** A freed prefix that is settled now (a restart may have come between), else a fresh one. */
  const takePrefix = async (admin: NatsConnection): Promise<string> => {
    for (let reused = free.pop(); reused !== undefined; reused = free.pop()) {
      if (await settled(admin, reused)) return reused;
    }
    return freshPrefix();
  };

  const factory: DriverFactory = async ({ clock, hooks, lifecycleRetention }) => {
    const { cluster, admin } = await open();
    const servers = [...cluster.urls];
    const prefix = await takePrefix(admin);
    const driver = createNatsDriver({
      servers,
      prefix,
      replicas: 3,
      clock,
      hooks,
      lifecycleRetention,
    });
    return {
      driver,
      sibling: async (context) => createNatsDriver({ ...context, servers, prefix, replicas: 3 }),
      dispose: async () => {
        await driver.close();
        // A driver that never opened made no buckets: the prefix is simply not reused.
        if (await empty(admin, prefix).catch(() => false)) free.push(prefix);
      },
    };
  };

  /**
   * Group restart's factory: drivers on a fresh prefix of the same cluster, each instance
   * through a proxy of its own to every node, so the control may restart the nodes one by one,
   * take the whole cluster away from every instance, or cut one instance off from all three.
   */
  const serverFactory: DriverFactory = async ({ clock, hooks, lifecycleRetention }) => {
    const { cluster } = await open();
    const prefix = freshPrefix();
    const proxies = new Map<Driver, readonly CutProxy[]>();
    const proxiesOf = (instance: Driver) => {
      const own = proxies.get(instance);
      if (own === undefined) throw new Error('this instance was not opened by the factory');
      return own;
    };
    const openInstance = async (context: SiblingContext) => {
      const own = await Promise.all(cluster.urls.map((url) => cutProxy(Number(new URL(url).port))));
      const driver = createNatsDriver({
        ...context,
        servers: own.map((proxy) => `nats://127.0.0.1:${proxy.port}`),
        prefix,
        replicas: 3,
        deleteMarkerGraceMs: GRACE_MS,
      });
      proxies.set(driver, own);
      return driver;
    };
    const every = () => [...proxies.values()].flat();
    const server: ServerControl = {
      replayGraceMs: GRACE_MS,
      // A cluster restarts node by node: each instance's connection to a node sees it go.
      restart: () => cluster.restartEach(),
      // Every instance loses every node for `ms` (the nodes run on; clients know only proxies).
      outage: async (ms) => {
        for (const proxy of every()) proxy.refuse();
        await sleep(ms);
        for (const proxy of every()) proxy.accept();
      },
      freeze: async (instance) => {
        for (const proxy of proxiesOf(instance)) proxy.freeze();
      },
      thaw: async (instance) => {
        await Promise.all(proxiesOf(instance).map((proxy) => proxy.thaw()));
      },
    };
    const driver = await openInstance({ clock, hooks, lifecycleRetention });
    return {
      driver,
      sibling: openInstance,
      server,
      dispose: async () => {
        await driver.close();
        await Promise.all([...proxies.values()].flat().map((proxy) => proxy.close()));
      },
    };
  };

  const stop = async () => {
    if (started === undefined) return;
    const { cluster, admin } = await started;
    await admin.close();
    await cluster.stop();
  };
  const start = async () => {
    await open();
  };
  return { factory, serverFactory, start, stop };
}
