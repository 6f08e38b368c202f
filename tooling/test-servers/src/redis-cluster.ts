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
  /**
   * SIGTERM (a graceful shutdown: its append-only file is flushed), repeated while the node
   * refuses it, waiting for the exit.
   */
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

/** How long one question to a node may take, connecting included. */
const ASK_MS = 5_000;

/**
 * Runs one command on the node at `port`, with a connection of its own, failing after ASK_MS: a
 * node that accepts connections but does not answer (stopped, or starved) otherwise holds the
 * caller forever, and `until` never reaches its own deadline.
 */
async function ask<T>(port: number, call: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis({
    port,
    host: '127.0.0.1',
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => {});
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`redis-server :${port} did not answer within ${ASK_MS} ms`)),
      ASK_MS,
    );
  });
  try {
    return await Promise.race([redis.connect().then(() => call(redis)), expired]);
  } finally {
    clearTimeout(timer);
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

const exited = (current: ChildProcess): Promise<void> =>
  current.exitCode !== null || current.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((resolve) => current.once('exit', () => resolve()));

/** How often a node that has not exited is sent SIGTERM again. */
const TERM_AGAIN_MS = 250;

/**
 * SIGTERM, sent again every TERM_AGAIN_MS until the process exits. A node writing its first
 * append-only file (a replica just after a full sync, its AOF begun anew) refuses the shutdown
 * ("Writing initial AOF, can't exit.") and runs on: one signal was then waited on forever, and a
 * rolling restart that reached such a replica right after its sync hung.
 */
async function terminated(current: ChildProcess): Promise<void> {
  const again = setInterval(() => current.kill('SIGTERM'), TERM_AGAIN_MS);
  try {
    const done = exited(current);
    current.kill('SIGTERM');
    await done;
  } finally {
    clearInterval(again);
  }
}

/**
 * A private Redis Cluster: `masters` masters with `replicasPerMaster` replicas each, every node a
 * redis-server child on a free loopback port with a dir of its own (append-only file, nodes.conf)
 * and `--cluster-node-timeout` (default 3000 ms), its append-only file never rewritten by itself
 * (see the arguments). Answers once every node reports
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
      // A replica that restarts (or whose master did) needs a full sync, which a master holds
      // back 5 s by default for more replicas to share it: each step of a rolling restart waited
      // that long (30 of the kit's restart case's ~39 s). Each master here has one replica:
      // there is nobody to wait for.
      ...['--repl-diskless-sync-delay', '0'],
      // No automatic AOF rewrite. With the defaults (100 %, 64 MB) a rewrite forks once a master's
      // file passes 64 MB, and the kit's scale case writes ~66 MB to one master seeding its big
      // backlog: on top of the earlier cases' writes, the fork landed at the end of that seeding,
      // a child on the master and one on its replica ran 2-4 s on a 2-core box, and the calls
      // measured on that master paid for them (6-19x those on the small store). No test needs a
      // rewrite; the file only grows, in this cluster's temp dir, until `stop` removes it.
      ...['--auto-aof-rewrite-percentage', '0'],
      ...(input.args ?? []),
    ];
    let child: ChildProcess | undefined;
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
        await terminated(current);
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
