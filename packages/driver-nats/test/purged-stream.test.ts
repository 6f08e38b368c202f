import { serverUrl } from '@berth/test-servers';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { expect, it } from 'vitest';
import { createNatsDriver } from '../src/index.js';
import { dropPrefix, freshPrefix } from './nats-factory.js';

it('a process starting on a jobs stream an operator purged answers at once: it waits for no sequence the stream no longer holds', async () => {
  const url = await serverUrl('nats');
  const prefix = freshPrefix();
  const first = createNatsDriver({ servers: url, prefix });
  const admin = await connect({ servers: url });
  try {
    await first.enqueue({ name: 'before' });
    await first.close();
    // What `nats stream purge` does: every message goes, the sequence stays where it was.
    const jsm = await jetstreamManager(admin);
    await jsm.streams.purge(`KV_${prefix}_jobs`);

    const next = createNatsDriver({ servers: url, prefix, timeoutMs: 2_000 });
    try {
      expect((await next.list({ limit: 10 })).jobs).toEqual([]);
      const { id } = await next.enqueue({ name: 'after' });
      expect((await next.get(id))?.name).toBe('after');
    } finally {
      await next.close();
    }
  } finally {
    await admin.close();
    await dropPrefix(url, prefix);
  }
});
