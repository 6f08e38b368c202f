import { describeDriver, type KitShard, TOPOLOGY_DEEP_ONLY } from '@berth/conformance';
import { kitBudget, PRIVATE_START_HOOK_MS } from '@berth/test-servers';
import { afterAll, beforeAll } from 'vitest';
import { clusterFactory } from './cluster-factory.js';
import { memoryFactory } from './memory-factory.js';

/** How many files run the kit on the cluster between them (each on a cluster of its own). */
export const CLUSTER_KIT_SHARES = 2;

/**
 * This file's share of the whole kit on a private 3-node cluster of nats-server 2.10 with
 * replicas: 3, started once for the file: what the README recommends for a queue that must not
 * lose an acked job. The start is the file's setup, in a hook of its own: a case's timeout covers
 * only the case (started lazily, it counted against the file's first case).
 */
export function describeClusterKit(index: number): void {
  const { factory, serverFactory, start, stop } = clusterFactory();
  beforeAll(start, PRIVATE_START_HOOK_MS);
  afterAll(stop, 30_000);
  const shard: KitShard = { index, count: CLUSTER_KIT_SHARES };
  describeDriver('nats (3-node nats-server 2.10 cluster, replicas: 3)', factory, {
    reference: memoryFactory,
    serverFactory,
    // The nats kit ran whole on one server: the cluster repeats it at its CI budget.
    ...kitBudget('topology', TOPOLOGY_DEEP_ONLY),
    shard,
  });
}
