import type { Redis } from 'ioredis';
import { reconnectOnEnd } from './failover.js';

/** What the driver's pub/sub connection tells its owner. */
export interface SubscriberEvents {
  /** A message on one of the subscribed channels. */
  readonly message: (channel: string, message: string) => void;
  /** Listening again after a gap (a reconnect, a move to another node): its messages are lost. */
  readonly resumed: () => void;
}

/**
 * The driver's one pub/sub connection (a subscribed connection can run nothing else), opened on
 * the first subscribe; each channel is subscribed while its owner wants it. Standalone and
 * Sentinel here, Cluster in cluster-subscriber.ts.
 */
export interface Subscriber {
  /** Resolves once the server confirmed the channel; a failure leaves it unsubscribed. */
  subscribe(channel: string): Promise<void>;
  /** Never throws: a connection that is away has nothing to unsubscribe from. */
  unsubscribe(channel: string): Promise<void>;
  close(): void;
}

/**
 * A connection duplicated from the driver's. ioredis reconnects it; it subscribes again to the
 * channels wanted then (not ioredis' own list, which keeps a channel whose UNSUBSCRIBE was lost
 * with the connection) and tells `resumed`.
 */
export function createSubscriber(base: Redis, events: SubscriberEvents): Subscriber {
  const channels = new Set<string>();
  let connection: Redis | undefined;

  const open = (): Redis => {
    if (connection !== undefined) return connection;
    const opened = base.duplicate({ autoResubscribe: false });
    opened.on('error', () => {});
    opened.on('message', events.message);
    // Ended by ioredis while still wanted (failover.ts): it connects again, and subscribes below.
    reconnectOnEnd(opened, () => connection === opened);
    let connectedBefore = false;
    opened.on('ready', () => {
      if (!connectedBefore) {
        connectedBefore = true;
        return;
      }
      if (channels.size > 0) opened.subscribe(...channels).then(events.resumed, () => {});
    });
    connection = opened;
    return opened;
  };

  return {
    async subscribe(channel) {
      const opened = open();
      channels.add(channel);
      try {
        await opened.subscribe(channel);
      } catch (error) {
        channels.delete(channel);
        // A connection that subscribes nothing is not kept: the next subscribe opens afresh.
        if (channels.size === 0 && connection === opened) {
          connection = undefined;
          opened.disconnect();
        }
        throw error;
      }
    },
    async unsubscribe(channel) {
      channels.delete(channel);
      await connection?.unsubscribe(channel).catch(() => {});
    },
    close() {
      channels.clear();
      const opened = connection;
      connection = undefined;
      opened?.disconnect();
    },
  };
}
