import { type RedisClusterNode, startRedisCluster } from '@berth/test-servers';
import { Redis } from 'ioredis';
import { NAMESPACE } from '../child/spec.ts';
import type { ChaosServer } from './server.ts';

/** Every key of the run carries this hash tag: one slot, so one master serves the whole run. */
const TAG_KEY = `{${NAMESPACE}}:`;

/**
 * A private Redis Cluster of 3 masters and 3 replicas (`--cluster-node-timeout 3000`, append-only
 * files); its `url` lists the nodes as `host:port`, comma-separated. A crash SIGKILLs the master
 * serving the run's slot. The restart waits for its replica to take over (node timeout, then the
 * replica's election), then starts the killed node again: it rejoins as a replica. Replication is
 * asynchronous: what the killed master acknowledged and had not yet sent its replica is lost.
 */
export async function startRedisCluster3x2(): Promise<ChaosServer> {
  const cluster = await startRedisCluster();
  let crashed: RedisClusterNode | undefined;
  const slot = async (): Promise<number> => {
    const node = cluster.nodes.find((candidate) => candidate.running());
    if (node === undefined) throw new Error('no node of the cluster runs');
    const redis = new Redis({ port: node.port, lazyConnect: true, maxRetriesPerRequest: 0 });
    try {
      await redis.connect();
      return Number(await redis.cluster('KEYSLOT', TAG_KEY));
    } finally {
      redis.disconnect();
    }
  };
  return {
    backend: 'redis-cluster',
    url: cluster.nodes.map((node) => node.address).join(','),
    async crash() {
      const master = await cluster.masterOf(await slot());
      await master.crash();
      crashed = master;
    },
    async restart() {
      // Started before the failover, the killed master would simply come back on its own file.
      await cluster.settled(120_000);
      await crashed?.start();
      crashed = undefined;
    },
    stop: () => cluster.stop(),
  };
}
