import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@berth/test-servers';
import { Redis } from 'ioredis';
import { processServer } from './process-server.ts';
import type { ChaosServer, ServerOptions } from './server.ts';

/**
 * A private redis-server with the settings under which an acknowledged write survives a crash:
 * AOF on, fsynced on every write. Restarted on the same AOF after a SIGKILL.
 */
export async function startRedis(options: ServerOptions = {}): Promise<ChaosServer> {
  const { island } = options;
  const dir = await mkdtemp(join(tmpdir(), 'berth-chaos-redis-'));
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  // Answers only once the AOF is loaded: before that redis refuses commands with LOADING.
  const ready = async () => {
    const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0 });
    try {
      await redis.connect();
      return (await redis.ping()) === 'PONG';
    } finally {
      redis.disconnect();
    }
  };
  return processServer({
    backend: 'redis',
    url,
    port,
    dir,
    command: 'redis-server',
    args: [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      // An island's clients come from a non-loopback address, which protected mode refuses
      // (without a password) however the server is bound.
      ...(island === undefined ? [] : [island.host, '--protected-mode', 'no']),
      '--appendonly',
      'yes',
      '--appendfsync',
      'always',
      '--save',
      '',
      '--dir',
      dir,
    ],
    ready,
  });
}
