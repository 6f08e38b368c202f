import { type ChildProcess, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { onExit, until } from '@berth/test-servers';
import { Redis } from 'ioredis';

/** One redis-server (or sentinel) process of a replica set, on `host:port`. */
export interface RedisNode {
  readonly host: string;
  readonly port: number;
  /** A connection of its own, for looks at its role; the caller disconnects it. */
  connect(): Redis;
  /** SIGKILL: no shutdown, no flush. */
  kill(): Promise<void>;
  /** Starts it again on its config file (which a sentinel may have rewritten) and data. */
  start(): Promise<void>;
  /** SIGKILL for good. Idempotent. */
  stop(): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * Writes `lines` as `<dir>/<file>` and runs `redis-server <file>` (with `--sentinel` for a
 * sentinel), prefixed by `exec` (`ip netns exec <ns>`) to run inside a namespace. The config is a
 * file so the `CONFIG REWRITE` a sentinel sends on a role change survives a restart.
 */
export async function startRedisNode(input: {
  readonly dir: string;
  readonly file: string;
  readonly host: string;
  readonly port: number;
  readonly lines: readonly string[];
  readonly sentinel?: boolean;
  readonly exec?: readonly string[];
}): Promise<RedisNode> {
  const config = join(input.dir, input.file);
  await writeFile(config, `${input.lines.join('\n')}\n`);
  const connect = () => {
    const redis = new Redis({
      host: input.host,
      port: input.port,
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      connectTimeout: 1_000,
      commandTimeout: 2_000,
    });
    // A look at a node that is down fails its call; the socket's error says nothing more.
    redis.on('error', () => {});
    return redis;
  };
  let child: ChildProcess | undefined;
  let stopped = false;
  const start = async () => {
    const args = ['redis-server', config, ...(input.sentinel === true ? ['--sentinel'] : [])];
    const [command = 'redis-server', ...rest] = [...(input.exec ?? []), ...args];
    const started = spawn(command, rest, { stdio: 'ignore' });
    child = started;
    let exit: number | null = null;
    started.once('exit', (code) => {
      exit = code ?? -1;
    });
    // Answers only once the AOF is loaded: before that redis refuses commands with LOADING.
    await until(
      `redis on ${input.host}:${input.port}`,
      async () => {
        const redis = connect();
        try {
          await redis.connect();
          return (await redis.ping()) === 'PONG';
        } finally {
          redis.disconnect();
        }
      },
      30_000,
      () => (exit === null ? undefined : `redis-server exited with ${exit}`),
    );
  };
  const kill = async () => {
    const current = child;
    child = undefined;
    if (current === undefined) return;
    current.kill('SIGKILL');
    await exited(current);
  };
  const unregister = onExit(() => child?.kill('SIGKILL'));
  try {
    await start();
  } catch (error) {
    unregister();
    await kill();
    throw error;
  }
  return {
    host: input.host,
    port: input.port,
    connect,
    kill,
    start,
    async stop() {
      if (stopped) return;
      stopped = true;
      unregister();
      await kill();
    },
  };
}
