// Measures Redis Cluster's loss window: acknowledged enqueues lost when the master serving a
// prefix's slot is paused (SIGSTOP: a GC or VM stall, an overloaded host) for `pauseMs` and then
// resumed. Run from chaos/:
//   pnpm exec tsx --conditions=@berth/source src/measure/redis-cluster-pause.ts [pauseMs...] [--min-replicas] [--durability]
// `--min-replicas` runs the nodes with `min-replicas-to-write 1` and `min-replicas-max-lag 1`.
// `--durability` gives the drivers `durability: { replicas: 1, timeoutMs: 1_000 }`.

import { setTimeout as sleep } from 'node:timers/promises';
import { createRedisDriver, type RedisDriverOptions } from '@berth/driver-redis';
import { type RedisCluster, startRedisCluster } from '@berth/test-servers';
import { Redis } from 'ioredis';

const PRODUCERS = 4;
const PREFIX = 'pause-measure';

async function slotOf(cluster: RedisCluster, key: string): Promise<number> {
  const node = cluster.nodes[0];
  if (node === undefined) throw new Error('the cluster has no node');
  const redis = new Redis({ port: node.port });
  try {
    return Number(await redis.cluster('KEYSLOT', key));
  } finally {
    redis.disconnect();
  }
}

/** One pause: enqueues from 4 drivers through it; answers what was acknowledged and lost. */
async function measure(
  pauseMs: number,
  args: readonly string[],
  durability: RedisDriverOptions['durability'],
) {
  const cluster = await startRedisCluster({ args });
  try {
    const slot = await slotOf(cluster, `{${PREFIX}}:x`);
    const master = await cluster.masterOf(slot);
    const drivers = Array.from({ length: PRODUCERS }, () =>
      createRedisDriver({
        cluster: cluster.startup,
        prefix: PREFIX,
        ...(durability === undefined ? {} : { durability }),
      }),
    );
    const acked: { id: string; at: number }[] = [];
    let refused = 0;
    let producing = true;
    const start = Date.now();
    const loops = drivers.map(async (driver) => {
      while (producing) {
        try {
          const { id } = await driver.enqueue({ name: 'x' });
          acked.push({ id, at: Date.now() - start });
        } catch {
          refused += 1;
          await sleep(20);
        }
      }
    });
    await sleep(1_000);
    master.signal('SIGSTOP');
    await sleep(pauseMs);
    master.signal('SIGCONT');
    const resumedAt = Date.now() - start;
    await sleep(4_000);
    producing = false;
    await Promise.all(loops);
    await cluster.settled(60_000);
    // Whether the replica took over the slot: a pause too short for a failover loses nothing.
    const failedOver = (await cluster.masterOf(slot)).port !== master.port;
    const reader = drivers[0] as (typeof drivers)[number];
    const lostAt: number[] = [];
    for (const { id, at } of acked) if ((await reader.get(id)) === undefined) lostAt.push(at);
    for (const driver of drivers) await driver.close();
    return {
      pauseMs,
      failedOver,
      acknowledged: acked.length,
      refused,
      lost: lostAt.length,
      // When the lost enqueues were acknowledged, ms from the resume (negative: before the pause ended).
      lostAcknowledgedAt:
        lostAt.length === 0
          ? ''
          : `${(lostAt[0] ?? 0) - resumedAt}..${(lostAt.at(-1) ?? 0) - resumedAt} ms`,
    };
  } finally {
    await cluster.stop();
  }
}

const minReplicas = process.argv.includes('--min-replicas');
const durability = process.argv.includes('--durability')
  ? { replicas: 1, timeoutMs: 1_000 }
  : undefined;
const pauses = process.argv
  .slice(2)
  .filter((arg) => !arg.startsWith('--'))
  .map(Number);
const args = minReplicas ? ['--min-replicas-to-write', '1', '--min-replicas-max-lag', '1'] : [];
for (const pauseMs of pauses.length > 0 ? pauses : [3_500, 4_500, 5_500, 8_000]) {
  const result = await measure(pauseMs, args, durability);
  console.log(JSON.stringify({ minReplicas, durability: durability !== undefined, ...result }));
}
