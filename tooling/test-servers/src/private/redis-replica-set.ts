import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort, onExit, until } from './process.js';

/** One process of a replica set: its loopback port, and a way to stop, freeze or kill it. */
export interface RedisNode {
  readonly port: number;
  /** SIGSTOP freezes it (its sockets stay open, nothing answers), SIGCONT thaws, SIGKILL ends it. */
  signal(signal: 'SIGSTOP' | 'SIGCONT' | 'SIGKILL'): void;
}

/** A primary, its replicas and three sentinels watching them, all private and on loopback ports. */
export interface RedisReplicaSet {
  /** The master name the sentinels know it by. */
  readonly name: string;
  readonly primary: RedisNode;
  readonly replicas: readonly RedisNode[];
  readonly sentinels: readonly RedisNode[];
  /** The sentinels as `createRedisDriver({ sentinels })` takes them. */
  readonly sentinelAddresses: readonly { readonly host: string; readonly port: number }[];
  /** The port of the master the first answering sentinel names now. */
  masterPort(): Promise<number>;
  /** Kills every process and removes their directories. */
  dispose(): Promise<void>;
}

export interface ReplicaSetOptions {
  /** Replicas of the primary. Default 1. */
  readonly replicas?: number;
  /** How long a silent master takes to be judged down (sentinel down-after-milliseconds). */
  readonly downAfterMs?: number;
}

const HOST = '127.0.0.1';
/** Sentinel failover-timeout: one replica to promote takes well under it on loopback. */
const FAILOVER_TIMEOUT_MS = 2_000;

async function ask<T>(port: number, call: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis({ host: HOST, port, lazyConnect: true, maxRetriesPerRequest: 0 });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return await call(redis);
  } finally {
    redis.disconnect();
  }
}

/** A field of `INFO <section>`. */
const infoField = (info: string, field: string): string | undefined =>
  new RegExp(`^${field}:(.*)$`, 'm').exec(info)?.[1]?.trim();

function spawnNode(args: readonly string[], kills: Set<ChildProcess>) {
  const child = spawn('redis-server', args, { stdio: 'ignore' });
  kills.add(child);
  let exit: string | undefined;
  child.once('error', (error) => {
    exit = error.message;
  });
  child.once('exit', (code, signal) => {
    exit ??= `exited with ${code ?? signal}`;
    kills.delete(child);
  });
  return {
    failed: () => exit,
    signal: (signal: NodeJS.Signals) => {
      child.kill(signal);
    },
  };
}

/**
 * Starts a replica set of this process's own: a primary (no persistence), `replicas` replicas
 * synced from it, and three sentinels (quorum 2) that have found the replicas and each other, so
 * a failover can start as soon as the primary is judged down. `dispose()` kills them all; so
 * does this process exiting.
 */
export async function startRedisReplicaSet(
  options: ReplicaSetOptions = {},
): Promise<RedisReplicaSet> {
  const name = 'berth-set';
  const dir = mkdtempSync(join(tmpdir(), 'berth-replica-set-'));
  const kills = new Set<ChildProcess>();
  const killAll = () => {
    for (const child of kills) child.kill('SIGKILL');
  };
  const unregister = onExit(killAll);
  const common = ['--bind', HOST, '--save', '', '--appendonly', 'no'];
  const sync = ['--repl-diskless-sync', 'yes', '--repl-diskless-sync-delay', '0'];
  try {
    const start = async (
      what: string,
      args: string[],
      ready: (port: number) => Promise<boolean>,
    ) => {
      const port = await freePort();
      const own = join(dir, String(port));
      mkdirSync(own);
      const node = spawnNode(['--port', String(port), '--dir', own, ...args], kills);
      await until(`${what} on port ${port}`, () => ready(port), 60_000, node.failed);
      return { port, signal: node.signal };
    };
    const primary = await start('a private redis primary', [...common, ...sync], (port) =>
      ask(port, async (redis) => (await redis.ping()) === 'PONG'),
    );
    const replicas: RedisNode[] = [];
    for (let index = 0; index < (options.replicas ?? 1); index += 1) {
      const args = [...common, ...sync, '--replicaof', HOST, String(primary.port)];
      replicas.push(
        await start('a private redis replica', args, (port) =>
          ask(port, async (redis) => {
            const info = await redis.info('replication');
            return infoField(info, 'master_link_status') === 'up';
          }),
        ),
      );
    }
    const sentinels: RedisNode[] = [];
    for (let index = 0; index < 3; index += 1) {
      const port = await freePort();
      const config = join(dir, `sentinel-${port}.conf`);
      writeFileSync(
        config,
        [
          `port ${port}`,
          `bind ${HOST}`,
          `dir ${dir}`,
          `sentinel monitor ${name} ${HOST} ${primary.port} 2`,
          `sentinel down-after-milliseconds ${name} ${options.downAfterMs ?? 1_000}`,
          // A failed election (a split vote, likelier on a loaded box) is tried again after twice
          // this: at 5 s, one split vote kept a failover past a test's 20 s.
          `sentinel failover-timeout ${name} ${FAILOVER_TIMEOUT_MS}`,
          `sentinel parallel-syncs ${name} 1`,
          '',
        ].join('\n'),
      );
      const node = spawnNode([config, '--sentinel'], kills);
      await until(
        `a private redis sentinel on port ${port}`,
        async () => ask(port, async (r) => (await r.ping()) === 'PONG'),
        60_000,
        node.failed,
      );
      sentinels.push({ port, signal: node.signal });
    }
    // A sentinel that has not yet heard of the others cannot reach a quorum.
    for (const sentinel of sentinels) {
      await until(`sentinel ${sentinel.port} finding the others and the replicas`, () =>
        ask(sentinel.port, async (redis) => {
          const others = (await redis.call('SENTINEL', 'SENTINELS', name)) as unknown[];
          const known = (await redis.call('SENTINEL', 'REPLICAS', name)) as unknown[];
          return others.length === 2 && known.length === replicas.length;
        }),
      );
    }
    const masterPort = async (): Promise<number> => {
      for (const sentinel of sentinels) {
        const answer = await ask(sentinel.port, (redis) =>
          redis.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', name),
        ).catch(() => undefined);
        if (Array.isArray(answer)) return Number(answer[1]);
      }
      throw new Error('no sentinel of the replica set answers');
    };
    return {
      name,
      primary,
      replicas,
      sentinels,
      sentinelAddresses: sentinels.map((sentinel) => ({ host: HOST, port: sentinel.port })),
      masterPort,
      async dispose() {
        unregister();
        const exits = [...kills].map(
          (child) => new Promise((resolve) => child.once('exit', resolve)),
        );
        killAll();
        await Promise.all(exits);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    unregister();
    killAll();
    rmSync(dir, { recursive: true, force: true });
    throw new Error('could not start a private redis replica set (apt-get install redis-server)', {
      cause: error,
    });
  }
}
