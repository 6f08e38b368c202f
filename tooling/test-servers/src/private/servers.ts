import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { Redis } from 'ioredis';
import { startPrivatePg } from './pg.js';
import { accepts, childServer, freePort, onExit } from './process.js';

export type PrivateKind = 'pg' | 'redis' | 'nats';

/**
 * A server of a test file's own, on a free loopback port and a temporary store: stopping and
 * starting it disturbs nobody else. `stop` is a graceful shutdown (what it acknowledged is kept);
 * `start` brings it back on the same port and store.
 */
export interface PrivateServer {
  readonly kind: PrivateKind;
  readonly port: number;
  /** The URL of this server, or of a proxy in front of it listening on `port`. */
  url(port?: number): string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it for good and removes its store. */
  dispose(): Promise<void>;
}

const URLS: Record<PrivateKind, (port: number) => string> = {
  pg: (port) => `postgres://postgres@127.0.0.1:${port}/postgres`,
  redis: (port) => `redis://127.0.0.1:${port}`,
  nats: (port) => `nats://127.0.0.1:${port}`,
};

/** Answers PONG only once its append-only file is loaded (before that: LOADING). */
async function redisServes(url: string): Promise<boolean> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0 });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } finally {
    redis.disconnect();
  }
}

/**
 * Answers once JetStream does: right after a start, the port accepts clients while JetStream
 * still recovers its streams, and an API request sent then may go unanswered.
 */
async function jetStreamServes(url: string): Promise<boolean> {
  const nc = await connect({ servers: url, reconnect: false, timeout: 1_000 });
  try {
    await (await jetstreamManager(nc, { timeout: 1_000 })).getAccountInfo();
    return true;
  } finally {
    await nc.close();
  }
}

/** redis-server with AOF fsynced on every write, or nats-server with JetStream. */
async function startChild(kind: 'redis' | 'nats'): Promise<PrivateServer> {
  const port = await freePort();
  const store = mkdtempSync(join(tmpdir(), `berth-private-${kind}-`));
  const url = URLS[kind](port);
  const server =
    kind === 'redis'
      ? childServer({
          what: `a private redis-server at ${url}`,
          command: 'redis-server',
          args: ['--bind', '127.0.0.1', '--port', String(port), '--appendonly', 'yes'].concat([
            '--appendfsync',
            'always',
            '--save',
            '',
            '--dir',
            store,
          ]),
          ready: () => redisServes(url),
        })
      : childServer({
          what: `a private nats-server at ${url}`,
          command: 'nats-server',
          args: ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', store],
          ready: async () => (await accepts(port)) && (await jetStreamServes(url)),
        });
  const unregister = onExit(() => server.kill());
  try {
    await server.start();
  } catch (error) {
    server.kill();
    rmSync(store, { recursive: true, force: true });
    throw new Error(
      `could not start ${kind}-server for the restart tests (apt-get install ${kind === 'redis' ? 'redis-server' : 'nats-server'})`,
      { cause: error },
    );
  }
  return {
    kind,
    port,
    url: (through = port) => URLS[kind](through),
    stop: server.stop,
    start: server.start,
    dispose: async () => {
      unregister();
      await server.stop();
      rmSync(store, { recursive: true, force: true });
    },
  };
}

/** Starts a private server of `kind`; the caller disposes of it. */
export async function startPrivateServer(kind: PrivateKind): Promise<PrivateServer> {
  if (kind !== 'pg') return startChild(kind);
  const pg = await startPrivatePg();
  return { kind, ...pg, url: (through = pg.port) => URLS.pg(through) };
}
