import { natsServerBinary, startNatsCluster } from '@berth/test-servers';
import { NAMESPACE } from '../child/spec.ts';
import type { ChaosServer } from './server.ts';

/** The stream whose leader the crash nemesis kills: the jobs bucket, where every claim lands. */
const JOBS_STREAM = `KV_${NAMESPACE}_jobs`;

/**
 * A private 3-node cluster of nats-server 2.10 (Debian trixie's, fetched by
 * `tooling/nats-2.10.sh`); the drivers make their buckets with `replicas: 3`. Its `url` lists
 * the three servers, comma-separated. A crash SIGKILLs the server leading the jobs stream
 * (stream info names it) and a restart starts that server again on its own store: the other two
 * elect a leader meanwhile and carry on.
 */
export async function startNatsCluster2_10(): Promise<ChaosServer> {
  const cluster = await startNatsCluster({ binary: natsServerBinary('2.10').path });
  let crashed: { start(): Promise<void> } | undefined;
  return {
    backend: 'nats-cluster',
    url: cluster.urls.join(','),
    async crash() {
      const leader = await cluster.leaderOf(JOBS_STREAM);
      await leader.kill();
      crashed = leader;
    },
    async restart() {
      await crashed?.start();
      crashed = undefined;
    },
    // startNatsCluster SIGKILLs its servers itself if the process exits first.
    stop: () => cluster.stop(),
  };
}
