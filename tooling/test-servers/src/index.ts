import { existsSync } from 'node:fs';
import { connect } from 'node:net';

export type ServerKind = 'pg' | 'redis' | 'nats';

interface ServerSpec {
  readonly envVar: string;
  readonly defaultUrl: string;
  readonly image: string;
  readonly port: number;
  readonly toUrl: (host: string, port: number) => string;
  readonly command?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly start: string;
}

const SPECS: Record<ServerKind, ServerSpec> = {
  pg: {
    envVar: 'BERTH_PG_URL',
    defaultUrl: 'postgres://postgres@127.0.0.1:5432/test',
    image: 'postgres:15-alpine',
    port: 5432,
    toUrl: (host, port) => `postgres://postgres:postgres@${host}:${port}/postgres`,
    env: { POSTGRES_PASSWORD: 'postgres' },
    start: 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start',
  },
  redis: {
    envVar: 'BERTH_REDIS_URL',
    defaultUrl: 'redis://127.0.0.1:6379',
    image: 'redis:7-alpine',
    port: 6379,
    toUrl: (host, port) => `redis://${host}:${port}`,
    start:
      'redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log',
  },
  nats: {
    envVar: 'BERTH_NATS_URL',
    defaultUrl: 'nats://127.0.0.1:4222',
    image: 'nats:2.9-alpine',
    port: 4222,
    toUrl: (host, port) => `nats://${host}:${port}`,
    command: ['-js'],
    start:
      'start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server -- -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log',
  },
};

/** Whether something accepts TCP connections at the URL's host and port. */
export function answers(url: string, timeoutMs = 1_000): Promise<boolean> {
  const parsed = new URL(url);
  const port = Number(parsed.port) || 0;
  return new Promise((resolve) => {
    const socket = connect({ host: parsed.hostname, port, timeout: timeoutMs });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
  });
}

const dockerEngineRuns = (): boolean =>
  existsSync('/var/run/docker.sock') || process.env.DOCKER_HOST !== undefined;

const found = new Map<ServerKind, Promise<string>>();

/**
 * The URL of a server of `kind` for tests: the env var (`BERTH_PG_URL`, `BERTH_REDIS_URL`,
 * `BERTH_NATS_URL`), then the local default port, then a testcontainers container when a Docker
 * engine runs. None reachable throws, naming the command that starts one: never a silent skip.
 */
export function serverUrl(kind: ServerKind): Promise<string> {
  let pending = found.get(kind);
  if (pending === undefined) {
    pending = locate(kind);
    found.set(kind, pending);
  }
  return pending;
}

async function locate(kind: ServerKind): Promise<string> {
  const spec = SPECS[kind];
  const fromEnv = process.env[spec.envVar];
  if (fromEnv !== undefined && fromEnv !== '') {
    if (await answers(fromEnv)) return fromEnv;
    throw new Error(
      `${spec.envVar}=${fromEnv} does not answer; start that server or unset ${spec.envVar}`,
    );
  }
  if (await answers(spec.defaultUrl)) return spec.defaultUrl;
  if (dockerEngineRuns()) return startContainer(spec);
  throw new Error(
    `no ${kind} server for the tests: nothing answers at ${spec.defaultUrl}, ${spec.envVar} is unset, ` +
      `and no Docker engine runs for testcontainers. Start one with:\n  ${spec.start}\n` +
      '(or run `pnpm services`, or set ' +
      `${spec.envVar})`,
  );
}

async function startContainer(spec: ServerSpec): Promise<string> {
  const { GenericContainer, Wait } = await import('testcontainers');
  let container = new GenericContainer(spec.image).withExposedPorts(spec.port);
  if (spec.env !== undefined) container = container.withEnvironment({ ...spec.env });
  if (spec.command !== undefined) container = container.withCommand([...spec.command]);
  container = container.withWaitStrategy(Wait.forListeningPorts());
  const started = await container.start();
  return spec.toUrl(started.getHost(), started.getMappedPort(spec.port));
}

/** The shell line that starts the local server of `kind` (shared/services.md). */
export const startCommand = (kind: ServerKind): string => SPECS[kind].start;

export { dropNatsPrefix, dropPgSchema, dropRedisPrefix } from './cleanup.js';
export { configFixProblem } from './config-fix.js';
export { PRIVATE_START_HOOK_MS } from './hook-timeout.js';
export { deepRun, type KitBudget, kitBudget } from './kit-budget.js';
export { type NatsRelease, natsServerBinary, natsServerVersion } from './nats-binaries.js';
export { type NatsCluster, type NatsNode, startNatsCluster } from './nats-cluster.js';
export type { ProxiedInstances, RestartControl } from './private/instances.js';
export { privateServerOnce, proxiedInstances } from './private/instances.js';
export { type PrivatePg, type PrivatePgOptions, startPrivatePg } from './private/pg.js';
// For suites that run servers of their own (chaos): the same process plumbing.
export { accepts, freePort, onExit, run, until } from './private/process.js';
export type { CutProxy } from './private/proxy.js';
export { cutProxy } from './private/proxy.js';
export type { RedisNode, RedisReplicaSet, ReplicaSetOptions } from './private/redis-replica-set.js';
export { startRedisReplicaSet } from './private/redis-replica-set.js';
export type { PrivateKind, PrivateServer } from './private/servers.js';
export { startPrivateServer } from './private/servers.js';
export {
  readmeBlock,
  runSnippet,
  snippetTypeErrors,
  splitImports,
  stripTypes,
} from './readme-snippets.js';
export {
  type RedisCluster,
  type RedisClusterNode,
  startRedisCluster,
} from './redis-cluster.js';
export { redisServerVersion, serverVersion } from './server-versions.js';
export { eventually, type PollOptions, pollUntil, type RetryOptions } from './waits.js';
