import { Redis } from 'ioredis';
import pg from 'pg';

/** Drops the schema a scratch-app run migrated. */
export async function dropPgSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/** Deletes every key of a scratch-app run's prefix (SCAN: tests only, never a hot path). */
export async function dropRedisPrefix(url: string, prefix: string): Promise<void> {
  const admin = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true });
  admin.on('error', () => {});
  try {
    await admin.connect();
    let cursor = '0';
    do {
      const [next, keys] = await admin.scan(cursor, 'MATCH', `{${prefix}}:*`, 'COUNT', 1_000);
      cursor = next;
      if (keys.length > 0) await admin.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    admin.disconnect();
  }
}
