import { execFileSync } from 'node:child_process';
import { connect } from '@nats-io/transport-node';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { ServerKind } from './index.js';

/**
 * The version of the server at `url` (what the tests of `kind` run against), as the server states
 * it: `15.20`, `7.0.15`, `2.9.10`.
 */
export async function serverVersion(kind: ServerKind, url: string): Promise<string> {
  if (kind === 'pg') {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
      // `15.20 (Debian 15.20-0+deb12u1)`: the version is the first word.
      return (rows[0]?.server_version ?? '').split(' ')[0] ?? '';
    } finally {
      await client.end();
    }
  }
  if (kind === 'redis') {
    const client = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true });
    client.on('error', () => {});
    try {
      await client.connect();
      return /redis_version:(\S+)/.exec(await client.info('server'))?.[1] ?? '';
    } finally {
      client.disconnect();
    }
  }
  const client = await connect({ servers: url });
  try {
    return client.info?.version ?? '';
  } finally {
    await client.close();
  }
}

/** `redis-server --version` of the binary the private replica sets and clusters start. */
export function redisServerVersion(): string {
  const text = execFileSync('redis-server', ['--version'], { encoding: 'utf8' });
  return /v=(\d+\.\d+\.\d+)/.exec(text)?.[1] ?? '';
}
