import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { prefixFor } from '../naming.ts';

/** Deletes the two KV streams Berth's NATS driver made under a run's prefix. */
export async function dropNatsPrefix(url: string, tag: string): Promise<void> {
  const connection = await connect({ servers: url });
  try {
    const jsm = await jetstreamManager(connection);
    for (const bucket of ['jobs', 'aux']) {
      await jsm.streams.delete(`KV_${prefixFor(tag)}_${bucket}`).catch(() => false);
    }
  } finally {
    await connection.close();
  }
}
