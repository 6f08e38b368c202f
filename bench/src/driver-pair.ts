import type { Driver } from '@berth/core';
import { prefixFor, schemaFor } from './naming.ts';
import type { ServerUrls } from './protocol.ts';
import type { ServerKind } from './systems/types.ts';

/**
 * Two driver objects over one store, as two processes over one server (memory: one store): the
 * worker's, then the other side's (a canceller, a waiting client). pg's schema is migrated.
 */
export async function openPair(
  server: ServerKind,
  urls: ServerUrls,
  tag: string,
): Promise<[Driver, Driver]> {
  if (server === 'memory') {
    const { createMemoryDriver } = await import('@berth/driver-memory');
    const worker = createMemoryDriver();
    return [worker, createMemoryDriver({ sameStoreAs: worker })];
  }
  if (server === 'pg') {
    const { createPgDriver } = await import('@berth/driver-pg');
    const open = () => createPgDriver({ connectionString: urls.pg, schema: schemaFor(tag) });
    const worker = open();
    await worker.migrate();
    return [worker, open()];
  }
  if (server === 'redis') {
    const { createRedisDriver } = await import('@berth/driver-redis');
    const open = () => createRedisDriver({ url: urls.redis, prefix: prefixFor(tag) });
    return [open(), open()];
  }
  const { createNatsDriver } = await import('@berth/driver-nats');
  const open = () => createNatsDriver({ servers: urls.nats, prefix: prefixFor(tag) });
  return [open(), open()];
}
