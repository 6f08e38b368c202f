import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, until } from '@berth/test-servers';
import { sentinelUrl } from '../child/sentinel-url.ts';
import { createServerNetns, type ServerNetns } from '../net/server-netns.ts';
import { type RedisNode, startRedisNode } from './redis-node.ts';
import type { Backend, ChaosServer, PrimaryPartition } from './server.ts';

const NAME = 'berth-chaos';
/** A primary unanswered this long is down for a sentinel; 2 of the 3 agreeing start a failover. */
const DOWN_AFTER_MS = 1_000;
const FAILOVER_TIMEOUT_MS = 3_000;
const QUORUM = 2;
/** How long a driver with `durability` waits for its replica to confirm a write. */
export const DURABILITY_TIMEOUT_MS = 1_000;

export interface SentinelServerOptions {
  readonly backend: Extract<Backend, 'redis-sentinel' | 'redis-sentinel-partition'>;
  /** Drivers wait for 1 replica after every acknowledging write. */
  readonly durability: boolean;
}

const dataLines = (dir: string) => [
  'appendonly yes',
  'appendfsync always',
  'save ""',
  `dir ${dir}`,
  'protected-mode no',
];

/**
 * A private primary + 1 replica + 3 sentinels. The primary runs inside a network namespace of
 * its own, bound to the namespace's veth address; the replica and sentinels on the machine's
 * side, bound to loopback and the host end of the veth, so both sides reach them until a cut.
 * Every node announces its veth address, the one both sides can reach. A crash SIGKILLs the
 * current primary, waits for the sentinels to promote the replica and starts it again: it
 * rejoins as a replica. `partition` cuts the namespace off.
 */
export async function startRedisSentinel(options: SentinelServerOptions): Promise<ChaosServer> {
  const dir = await mkdtemp(join(tmpdir(), 'berth-chaos-sentinel-'));
  const nodes: RedisNode[] = [];
  let netns: ServerNetns | undefined;
  const stop = async () => {
    for (const node of nodes) await node.stop();
    await netns?.remove();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    netns = await createServerNetns();
    const { hostIp, nsIp } = netns;
    const [primaryPort, replicaPort, ...sentinelPorts] = await Promise.all(
      Array.from({ length: 5 }, () => freePort()),
    );
    for (const name of ['primary', 'replica', 's0', 's1', 's2']) await mkdir(join(dir, name));
    const primary = await startRedisNode({
      dir: join(dir, 'primary'),
      file: 'redis.conf',
      host: nsIp,
      port: primaryPort as number,
      exec: netns.exec,
      lines: [
        `port ${primaryPort}`,
        `bind ${nsIp}`,
        `replica-announce-ip ${nsIp}`,
        ...dataLines(join(dir, 'primary')),
      ],
    });
    nodes.push(primary);
    const replica = await startRedisNode({
      dir: join(dir, 'replica'),
      file: 'redis.conf',
      host: hostIp,
      port: replicaPort as number,
      lines: [
        `port ${replicaPort}`,
        `bind 127.0.0.1 ${hostIp}`,
        `replica-announce-ip ${hostIp}`,
        `replicaof ${nsIp} ${primaryPort}`,
        ...dataLines(join(dir, 'replica')),
      ],
    });
    nodes.push(replica);
    const sentinels: RedisNode[] = [];
    for (const [index, port] of sentinelPorts.entries()) {
      const own = join(dir, `s${index}`);
      const sentinel = await startRedisNode({
        dir: own,
        file: 'sentinel.conf',
        host: hostIp,
        port,
        sentinel: true,
        lines: [
          `port ${port}`,
          `bind 127.0.0.1 ${hostIp}`,
          'protected-mode no',
          `dir ${own}`,
          `sentinel announce-ip ${hostIp}`,
          `sentinel monitor ${NAME} ${nsIp} ${primaryPort} ${QUORUM}`,
          `sentinel down-after-milliseconds ${NAME} ${DOWN_AFTER_MS}`,
          `sentinel failover-timeout ${NAME} ${FAILOVER_TIMEOUT_MS}`,
          `sentinel parallel-syncs ${NAME} 1`,
        ],
      });
      nodes.push(sentinel);
      sentinels.push(sentinel);
    }
    const ask = async <T>(look: (sentinel: ReturnType<RedisNode['connect']>) => Promise<T>) => {
      const connection = (sentinels[0] as RedisNode).connect();
      try {
        await connection.connect();
        return await look(connection);
      } finally {
        connection.disconnect();
      }
    };
    const primaryAddress = () =>
      ask(async (s) => {
        const [host, port] = (await s.call('SENTINEL', 'get-master-addr-by-name', NAME)) as [
          string,
          string,
        ];
        return `${host}:${port}`;
      });
    const nodeAt = (address: string) =>
      [primary, replica].find((node) => `${node.host}:${node.port}` === address);
    // Every sentinel knows the other two and the replica: a failover can start from the first
    // fault on.
    await until(
      'sentinels to find each other and the replica',
      async () => {
        for (const sentinel of sentinels) {
          const connection = sentinel.connect();
          try {
            await connection.connect();
            const peers = (await connection.call('SENTINEL', 'sentinels', NAME)) as unknown[];
            const replicas = (await connection.call('SENTINEL', 'replicas', NAME)) as unknown[];
            if (peers.length < 2 || replicas.length < 1) return false;
          } finally {
            connection.disconnect();
          }
        }
        return true;
      },
      30_000,
    );
    // The replica is in sync: what the primary acknowledged from now on can reach it.
    await until('the replica to sync', () => linkUp(replica), 30_000);

    const durability = options.durability
      ? { replicas: 1, timeoutMs: DURABILITY_TIMEOUT_MS }
      : undefined;
    const hostUrl = sentinelUrl({
      sentinels: sentinels.map((s) => ({ host: '127.0.0.1', port: s.port })),
      name: NAME,
      ...(durability === undefined ? {} : { durability }),
    });
    const isolatedUrl = sentinelUrl({
      sentinels: sentinels.map((s) => ({ host: hostIp, port: s.port })),
      name: NAME,
      ...(durability === undefined ? {} : { durability }),
    });
    const isolated = netns;
    const partition: PrimaryPartition = {
      command: (command, args) => [
        isolated.exec[0] as string,
        [...isolated.exec.slice(1), command, ...args],
      ],
      url: isolatedUrl,
      cut: () => isolated.cut(),
      heal: () => isolated.heal(),
      async prepare() {
        const wanted = `${primary.host}:${primary.port}`;
        if ((await primaryAddress()) !== wanted) {
          await until('the replica to sync', () => linkUp(primary), 30_000);
          await ask((s) => s.call('SENTINEL', 'failover', NAME));
          await until('the isolated node to lead', async () => {
            return (await primaryAddress()) === wanted;
          });
        }
        await until('the replica to sync', () => linkUp(replica), 30_000);
      },
    };
    let killed: RedisNode | undefined;
    return {
      backend: options.backend,
      url: hostUrl,
      async crash() {
        const before = await primaryAddress();
        killed = nodeAt(before);
        await killed?.kill();
      },
      // The sentinels promote the replica first; the old primary then starts as a primary of
      // a stale epoch and they turn it into a replica.
      async restart() {
        const down = killed;
        if (down === undefined) return;
        await until(
          'the sentinels to fail over',
          async () => (await primaryAddress()) !== `${down.host}:${down.port}`,
          30_000,
        );
        await down.start();
        killed = undefined;
      },
      ...(options.backend === 'redis-sentinel-partition' ? { partition } : {}),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Whether the node is a replica whose link to its primary is up. */
async function linkUp(node: RedisNode): Promise<boolean> {
  const connection = node.connect();
  try {
    await connection.connect();
    const info = await connection.info('replication');
    return info.includes('role:slave') && info.includes('master_link_status:up');
  } catch {
    await sleep(100);
    return false;
  } finally {
    connection.disconnect();
  }
}
