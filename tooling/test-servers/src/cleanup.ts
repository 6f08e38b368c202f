import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { Redis } from 'ioredis';
import pg from 'pg';

/** Drops a test's own pg schema (a missing one is fine). */
export async function dropPgSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema.replaceAll('"', '""')}" CASCADE`);
  } finally {
    await client.end();
  }
}

/** Deletes every key of a test's own redis prefix (SCAN: tests only, never a hot path). */
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

/** Deletes the streams of a test's own NATS prefix: its two KV buckets and its lifecycle stream (a missing one is fine). */
export async function dropNatsPrefix(url: string, prefix: string): Promise<void> {
  const admin = await connect({ servers: url });
  try {
    const { streams } = await jetstreamManager(admin);
    await Promise.all(
      [`KV_${prefix}_jobs`, `KV_${prefix}_aux`, `berth_${prefix}_lifecycle`].map((stream) =>
        streams.delete(stream).catch(() => false),
      ),
    );
  } finally {
    await admin.close();
  }
}
