import { serverUrl } from '@berth/test-servers';
import { Redis } from 'ioredis';
import { prefixFor, schemaFor } from './naming.ts';
import type { ServerUrls } from './protocol.ts';
import { dropNatsPrefix } from './systems/nats-admin.ts';
import { dropSchema } from './systems/pg-admin.ts';
import type { ServerKind } from './systems/types.ts';

/** The redis URL with the bench's db index: nothing the bench writes lands in db 0. */
export function withDb(url: string, db: number): string {
  const parsed = new URL(url);
  parsed.pathname = `/${db}`;
  return parsed.toString();
}

/**
 * The URL of each server the chosen systems need (BERTH_PG_URL / BERTH_REDIS_URL /
 * BERTH_NATS_URL, then the local default port, then testcontainers), found once.
 */
export async function locateServers(kinds: ReadonlySet<ServerKind>, redisDb: number) {
  const find = async (kind: 'pg' | 'redis' | 'nats') => (kinds.has(kind) ? serverUrl(kind) : '');
  const [pg, redis, nats] = await Promise.all([find('pg'), find('redis'), find('nats')]);
  return { pg, redis: redis === '' ? '' : withDb(redis, redisDb), nats };
}

/** Walks every key of one run, by its prefix, in SCAN steps, handing each step's keys to `step`. */
export async function forEachRunKeys(
  url: string,
  tag: string,
  step: (redis: Redis, keys: readonly string[]) => Promise<void>,
): Promise<void> {
  const redis = new Redis(url);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `*${prefixFor(tag)}*`, 'COUNT', 1_000);
      cursor = next;
      if (keys.length > 0) await step(redis, keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** Deletes every key of one run. Never a FLUSH. */
const deleteKeys = (url: string, tag: string): Promise<void> =>
  forEachRunKeys(url, tag, async (redis, keys) => {
    await redis.unlink(...keys);
  });

/** Removes what one run created: its pg schema, its redis keys, its NATS streams. */
export async function cleanUp(server: ServerKind, urls: ServerUrls, tag: string): Promise<void> {
  if (server === 'pg') await dropSchema(urls.pg, schemaFor(tag));
  if (server === 'redis') await deleteKeys(urls.redis, tag);
  if (server === 'nats') await dropNatsPrefix(urls.nats, tag);
}
