import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { schemaFor } from '../naming.ts';
import type { ServerUrls } from '../protocol.ts';
import { forEachRunKeys } from '../servers.ts';
import { BERTH_BUCKETS, kvStream } from '../systems/nats-admin.ts';
import { withPg } from '../systems/pg-admin.ts';
import type { ServerKind } from '../systems/types.ts';

/** Table, index and TOAST bytes of every relation in the run's schema (partitions included). */
const PG_SCHEMA_BYTES = `
SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint AS bytes
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = $1 AND c.relkind IN ('r', 'm')`;

async function pgBytes(url: string, tag: string): Promise<number> {
  return withPg(url, async (client) => {
    const { rows } = await client.query<{ bytes: string }>(PG_SCHEMA_BYTES, [schemaFor(tag)]);
    return Number(rows[0]?.bytes ?? 0);
  });
}

/** `MEMORY USAGE ... SAMPLES 0` (every element counted) summed over the run's keys. */
async function redisBytes(url: string, tag: string): Promise<number> {
  let bytes = 0;
  await forEachRunKeys(url, tag, async (redis, keys) => {
    const pipeline = redis.pipeline();
    for (const key of keys) pipeline.memory('USAGE', key, 'SAMPLES', '0');
    for (const [error, used] of (await pipeline.exec()) ?? []) {
      if (error === null) bytes += Number(used ?? 0);
    }
  });
  return bytes;
}

/** Bytes the run's two KV streams hold (JetStream's own accounting). */
async function natsBytes(url: string, tag: string): Promise<number> {
  const connection = await connect({ servers: url });
  try {
    const jsm = await jetstreamManager(connection);
    let bytes = 0;
    for (const bucket of BERTH_BUCKETS) {
      const info = await jsm.streams.info(kvStream(tag, bucket)).catch(() => undefined);
      bytes += info?.state.bytes ?? 0;
    }
    return bytes;
  } finally {
    await connection.close();
  }
}

/** This process's heap after two full collections (needs `--expose-gc`). */
function heapBytes(): number {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (collect === undefined) throw new Error('run the footprint child with --expose-gc');
  collect();
  collect();
  return process.memoryUsage().heapUsed;
}

/** What one system keeps for its jobs, in bytes: on its server, or in this process (memory). */
export function sizeOf(server: ServerKind, urls: ServerUrls, tag: string): Promise<number> {
  if (server === 'pg') return pgBytes(urls.pg, tag);
  if (server === 'redis') return redisBytes(urls.redis, tag);
  if (server === 'nats') return natsBytes(urls.nats, tag);
  return Promise.resolve(heapBytes());
}

/** What the figure of each server counts, for the table. */
export const MEASURED_AS: Record<ServerKind, string> = {
  memory: "the process's heap after a full GC",
  pg: 'pg_total_relation_size of every table in its schema (indexes and TOAST included)',
  redis: 'MEMORY USAGE … SAMPLES 0 summed over its keys',
  nats: "its KV streams' bytes (JetStream stream state)",
};
