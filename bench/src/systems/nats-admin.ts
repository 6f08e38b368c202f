import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { prefixFor } from '../naming.ts';

/** Deletes the KV streams a run made under its prefix: Berth's two, the floor's one. */
export async function dropNatsPrefix(url: string, tag: string): Promise<void> {
  const connection = await connect({ servers: url });
  try {
    const jsm = await jetstreamManager(connection);
    for (const bucket of ['jobs', 'aux', 'floor']) {
      await jsm.streams.delete(`KV_${prefixFor(tag)}_${bucket}`).catch(() => false);
    }
  } finally {
    await connection.close();
  }
}
