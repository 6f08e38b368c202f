import type { DriverFactory } from '@berth/conformance';
import { type NatsCluster, natsServerBinary, startNatsCluster } from '@berth/test-servers';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { createNatsDriver } from '../src/index.js';
import { freshPrefix } from './nats-factory.js';

/**
 * A factory of drivers with `replicas: 3` on one private 3-node cluster of nats-server 2.10,
 * started on first use; `stop` ends it.
 *
 * Each case gets a driver over empty buckets of a prefix no other live driver uses. Making two
 * R3 streams costs about 0.7 s of cluster consensus (the whole kit would spend minutes on it), so
 * a prefix's buckets, made by the first driver on it, are emptied and reused by a later case.
 * Emptying purges both streams.
 */
export function clusterFactory(): { factory: DriverFactory; stop: () => Promise<void> } {
  let started: Promise<{ cluster: NatsCluster; admin: NatsConnection }> | undefined;
  const free: string[] = [];
  const open = () => {
    started ??= (async () => {
      const cluster = await startNatsCluster({ binary: natsServerBinary('2.10').path });
      return { cluster, admin: await connect({ servers: [...cluster.urls] }) };
    })();
    return started;
  };

  const empty = async (admin: NatsConnection, prefix: string) => {
    const jsm = await jetstreamManager(admin);
    await Promise.all(['jobs', 'aux'].map((bucket) => jsm.streams.purge(`KV_${prefix}_${bucket}`)));
  };

  const factory: DriverFactory = async ({ clock, hooks }) => {
    const { cluster, admin } = await open();
    const servers = [...cluster.urls];
    const prefix = free.pop() ?? freshPrefix();
    const driver = createNatsDriver({ servers, prefix, replicas: 3, clock, hooks });
    return {
      driver,
      sibling: async (context) => createNatsDriver({ ...context, servers, prefix, replicas: 3 }),
      dispose: async () => {
        await driver.close();
        // A driver that never opened made no buckets: the prefix is simply not reused.
        if (
          await empty(admin, prefix).then(
            () => true,
            () => false,
          )
        )
          free.push(prefix);
      },
    };
  };

  const stop = async () => {
    if (started === undefined) return;
    const { cluster, admin } = await started;
    await admin.close();
    await cluster.stop();
  };
  return { factory, stop };
}
