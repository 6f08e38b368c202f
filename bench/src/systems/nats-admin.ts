import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { NATS_FLOOR_BUCKET } from '../floors/nats-floor.ts';
import { prefixFor } from '../naming.ts';

/** The KV buckets Berth's NATS driver makes under a run's prefix. */
export const BERTH_BUCKETS = ['jobs', 'aux'] as const;

/** The stream behind KV bucket `<prefix>_<bucket>` of a run. */
export const kvStream = (tag: string, bucket: string): string => `KV_${prefixFor(tag)}_${bucket}`;

/** The stream Berth's NATS driver keeps a run's lifecycle events in. */
export const lifecycleStream = (tag: string): string => `berth_${prefixFor(tag)}_lifecycle`;

/** Deletes the streams a run made under its prefix: Berth's three, the floor's one. */
export async function dropNatsPrefix(url: string, tag: string): Promise<void> {
  const connection = await connect({ servers: url });
  try {
    const jsm = await jetstreamManager(connection);
    for (const bucket of [...BERTH_BUCKETS, NATS_FLOOR_BUCKET]) {
      await jsm.streams.delete(kvStream(tag, bucket)).catch(() => false);
    }
    await jsm.streams.delete(lifecycleStream(tag)).catch(() => false);
  } finally {
    await connection.close();
  }
}
