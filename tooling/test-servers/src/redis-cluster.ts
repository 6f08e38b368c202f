import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort, onExit, run, until } from './private/process.js';

/** One redis-server of a private cluster. */
export interface RedisClusterNode {
  readonly port: number;
  /** `127.0.0.1:port`, as CLUSTER SLOTS and ioredis name the node. */
  readonly address: string;
  /** Whether its process runs. */
  running(): boolean;
  /** SIGKILL: no shutdown, no flush, no failover handed over. */
  crash(): Promise<void>;
  /** Sends `signal` (SIGSTOP, SIGCONT...) to its process. */
  signal(signal: NodeJS.Signals): void;
  /** SIGTERM (a graceful shutdown: its append-only file is flushed), waiting for the exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port and dir; answers once it answers PING. */
  start(): Promise<void>;
}

export interface RedisCluster {
  readonly nodes: readonly RedisClusterNode[];
  /** The startup nodes a Cluster client is given. */
  readonly startup: readonly { host: string; port: number }[];
  /** The node that is master of `slot` now, as a running node sees it. */
  masterOf(slot: number): Promise<RedisClusterNode>;
  /** Waits until every running node reports `cluster_state:ok`, every replica is in sync, and all
   * agree on each slot's master. */
  settled(timeoutMs?: number): Promise<void>;
  /** Kills every node and removes the dirs. Idempotent. */
  stop(): Promise<void>;
}

/** Runs one command on the node at `port`, with a connection of its own. */
async function ask<T>(port: number, call: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0 });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return await call(redis);
  } finally {
    redis.disconnect();
  }
}

/** Each slot range with its master's port, by first slot, as the node at `port` sees it. */
async function slotMasters(port: number): Promise<[from: number, to: number, master: number][]> {
  const ranges = await ask(port, (redis) => redis.cluster('SLOTS'));
  return ranges
    .map(([from, to, master]): [number, number, number] => [from, to, master?.[1] ?? 0])
    .sort(([a], [b]) => a - b);
}

/**
 * The node reports `cluster_state:ok` and, if a replica, a live link to its master: a replica
 * that never finished its first sync does not fail over when its master dies.
 */
const nodeOk = (port: number): Promise<boolean> =>
  ask(port, async (redis) => {
    if (!(await redis.cluster('INFO')).includes('cluster_state:ok')) return false;
    const replication = await redis.info('replication');
    return replication.includes('role:master') || replication.includes('master_link_status:up');
  });

/**
 * A private Redis Cluster: `masters` masters with `replicasPerMaster` replicas each, every node a
 * redis-server child on a free loopback port with a dir of its own (append-only file, nodes.conf)
 * and `--cluster-node-timeout` (default 3000 ms). Answers once every node reports
 * `cluster_state:ok`. Nothing shared is touched.
 */
export async function startRedisCluster(
  input: {
    masters?: number;
    replicasPerMaster?: number;
    nodeTimeoutMs?: number;
    /** More redis-server arguments for every node (`--min-replicas-to-write`, `1`...). */
    args?: readonly string[];
  } = {},
): Promise<RedisCluster> {
  const masters = input.masters ?? 3;
  const replicas = input.replicasPerMaster ?? 1;
  const dir = mkdtempSync(join(tmpdir(), 'berth-redis-cluster-'));
  const ports: number[] = [];
  // Each node listens twice: its port and its cluster bus. The bus gets a free port of its own
  // (`--cluster-port`): the default, port + 10000, is unchecked and lands in the ephemeral range,
  // where another process's connection may hold it and the node exits at start.
  // freePort answers a port free now; asking again before any binds may answer it twice.
  while (ports.length < 2 * masters * (1 + replicas)) {
    const port = await freePort();
    if (!ports.includes(port)) ports.push(port);
  }
  const children = new Set<ChildProcess>();
  const unhook = onExit(() => {
    for (const child of children) child.kill('SIGKILL');
  });

  const count = masters * (1 + replicas);
  const nodes = ports.slice(0, count).map((port, index): RedisClusterNode => {
    const own = join(dir, String(port));
    mkdirSync(own);
    const args = [
      ...['--bind', '127.0.0.1', '--port', String(port), '--dir', own],
      ...['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf'],
      ...['--cluster-port', String(ports[count + index])],
      ...['--cluster-node-timeout', String(input.nodeTimeoutMs ?? 3_000)],
      ...['--appendonly', 'yes', '--save', '', '--logfile', join(own, 'redis.log')],
      ...(input.args ?? []),
    ];
    let child: ChildProcess | undefined;
    const exited = (current: ChildProcess) =>
      current.exitCode !== null || current.signalCode !== null
        ? Promise.resolve()
        : new Promise<void>((resolve) => current.once('exit', () => resolve()));
    return {
      port,
      address: `127.0.0.1:${port}`,
      running: () => child !== undefined,
      async start() {
        if (child !== undefined) return;
        const started = spawn('redis-server', args, { stdio: 'ignore' });
        child = started;
        children.add(started);
        let exit: string | undefined;
        started.once('error', (error) => {
          exit = error.message;
        });
        started.once('exit', (code, signal) => {
          exit ??= `exited with ${code ?? signal}`;
          children.delete(started);
          if (child === started) child = undefined;
        });
        await until(
          `cluster node redis-server :${port} (log ${own}/redis.log)`,
          async () => (await ask(port, (redis) => redis.ping())) === 'PONG',
          30_000,
          () => exit,
        );
      },
      async crash() {
        const current = child;
        if (current === undefined) return;
        child = undefined;
        current.kill('SIGKILL');
        await exited(current);
      },
      signal(signal) {
        child?.kill(signal);
      },
      async stop() {
        const current = child;
        if (current === undefined) return;
        child = undefined;
        current.kill('SIGTERM');
        await exited(current);
      },
    };
  });

  const byPort = (port: number): RedisClusterNode => {
    const node = nodes.find((candidate) => candidate.port === port);
    if (node === undefined) throw new Error(`no node of this cluster listens on ${port}`);
    return node;
  };

  const settled = async (timeoutMs = 30_000) => {
    await until(
      `the redis cluster in ${dir}`,
      async () => {
        const live = nodes.filter((node) => node.running());
        const states = await Promise.all(live.map((node) => nodeOk(node.port)));
        if (!states.every(Boolean)) return false;
        // Every running node names the same master for every range, and that master runs.
        const views = await Promise.all(live.map((node) => slotMasters(node.port)));
        const first = JSON.stringify(views[0] ?? []);
        if (!views.every((view) => JSON.stringify(view) === first)) return false;
        return (views[0] ?? []).every(([, , port]) => byPort(port).running());
      },
      timeoutMs,
    );
  };

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await Promise.all(nodes.map((node) => node.crash()));
    unhook();
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    await Promise.all(nodes.map((node) => node.start()));
    await run('redis-cli', [
      '--cluster',
      'create',
      ...nodes.map((node) => node.address),
      '--cluster-replicas',
      String(replicas),
      '--cluster-yes',
    ]);
    await settled(60_000);
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    nodes,
    startup: nodes.map((node) => ({ host: '127.0.0.1', port: node.port })),
    async masterOf(slot) {
      const live = nodes.find((node) => node.running());
      if (live === undefined) throw new Error('no node of this cluster runs');
      const range = (await slotMasters(live.port)).find(([from, to]) => from <= slot && slot <= to);
      if (range === undefined) throw new Error(`slot ${slot} has no master`);
      return byPort(range[2]);
    },
    settled,
    stop,
  };
}
