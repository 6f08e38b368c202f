import { type DriverFactory, describeDriver } from '@berth/conformance';
import { createMemoryDriver } from '@berth/driver-memory';
import { afterAll } from 'vitest';
import { clusterFactory } from './cluster-factory.js';

// The whole kit on a private 3-node cluster of nats-server 2.10 with replicas: 3, started once
// for this file: what the README recommends for a queue that must not lose an acked job.
const { factory, stop } = clusterFactory();

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
  // The scale group counts the messages a call sends behind a backlog: the same driver code on
  // any server. Seeding 10,000 rows of each kind through R3 consensus alone took 41 s; 2,000
  // (the kit's floor is 1,000) keeps its ratio test and the file short. test/conformance.test.ts
  // runs it at the default size.
  scaleBacklog: 2_000,
});
