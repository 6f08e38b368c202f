import { type DriverFactory, describeDriver } from '@berth/conformance';
import { createMemoryDriver } from '@berth/driver-memory';
import { afterAll } from 'vitest';
import { clusterFactory } from './cluster-factory.js';

// The whole kit on a private 3-node cluster of nats-server 2.10 with replicas: 3, started once
// for this file: what the README recommends for a queue that must not lose an acked job.
const { factory, serverFactory, stop } = clusterFactory();

afterAll(stop, 30_000);

const memory: DriverFactory = async ({ clock, hooks }) => {
  const driver = createMemoryDriver({ clock, hooks });
  return {
    driver,
    sibling: async (context) => createMemoryDriver({ ...context, sameStoreAs: driver }),
    dispose: () => driver.close(),
  };
};

describeDriver('nats (3-node nats-server 2.10 cluster, replicas: 3)', factory, {
  reference: memory,
  serverFactory,
});
