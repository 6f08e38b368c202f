import { describeDriver, type KitShard, TOPOLOGY_DEEP_ONLY } from '@berth/conformance';
import { kitBudget, PRIVATE_START_HOOK_MS } from '@berth/test-servers';
import { afterAll, beforeAll } from 'vitest';
import { clusterFactory } from './cluster-factory.js';
import { memoryFactory } from './memory-factory.js';

/** How many files run the kit on a cluster between them (each on a cluster of its own). */
export const CLUSTER_KIT_SHARES = 2;

/**
 * This file's share of the whole kit on a private Redis Cluster of 3 masters and 3 replicas,
 * started once for the file, each driver given `cluster: [...]`. The start is the file's setup, in
 * a hook of its own: a case's timeout covers only the case (started lazily, it counted against
 * the file's first case, which timed out on a loaded machine).
 */
export function describeClusterKit(index: number): void {
  const { factory, serverFactory, cluster, stop } = clusterFactory();
  beforeAll(async () => {
    await cluster();
  }, PRIVATE_START_HOOK_MS);
  afterAll(stop, 30_000);
  const shard: KitShard = { index, count: CLUSTER_KIT_SHARES };
  describeDriver('redis (cluster of 3 masters + 3 replicas)', factory, {
    reference: memoryFactory,
    serverFactory,
    // The redis kit ran whole on one server: the cluster repeats it at its CI budget.
    ...kitBudget('topology', TOPOLOGY_DEEP_ONLY),
    shard,
  });
}
