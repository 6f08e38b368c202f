import { setTimeout as sleep } from 'node:timers/promises';
import type { Cluster, Redis } from 'ioredis';
import type { Subscriber, SubscriberEvents } from './subscriber.js';

/** How long a resubscribe waits between tries while no node takes it. */
const RETRY_MS = 200;

/**
 * The pub/sub connection on a Redis Cluster. A PUBLISH (the scripts') reaches every node over
 * the cluster bus, so one subscriber on any node hears every change of the prefix: it is a
 * connection of its own to a master the cluster client knows, made without reconnects of its
 * own. When that node goes away (killed, failed over) the subscriber moves to another node the
 * client knows by then, subscribes there to the channels wanted, and tells `resumed`: what was
 * published meanwhile is lost (the worker still polls).
 */
export function createClusterSubscriber(cluster: Cluster, events: SubscriberEvents): Subscriber {
  const channels = new Set<string>();
  let subscriber: Redis | undefined;
  let first: Promise<void> | undefined;
  let closed = false;

  /** A node to listen on: a master, else any node; none before the client has the slot map. */
  const pick = (): Redis | undefined => {
    const masters = cluster.nodes('master');
    const nodes = masters.length > 0 ? masters : cluster.nodes('all');
    return nodes[Math.floor(Math.random() * nodes.length)];
  };

  /** Subscribes every channel wanted on a node, or throws what went wrong. */
  const attach = async (): Promise<void> => {
    const node = pick();
    if (node === undefined) throw new Error('the Redis Cluster client knows no node yet');
    const connection = node.duplicate({
      lazyConnect: false,
      retryStrategy: () => null,
      enableOfflineQueue: true,
      maxRetriesPerRequest: 0,
    });
    connection.on('error', () => {});
    connection.on('message', events.message);
    const wanted = [...channels];
    try {
      if (wanted.length > 0) await connection.subscribe(...wanted);
    } catch (error) {
      connection.disconnect();
      throw error;
    }
    if (closed) {
      connection.disconnect();
      return;
    }
    subscriber = connection;
    connection.once('end', () => {
      if (subscriber !== connection || closed) return;
      subscriber = undefined;
      void reattach();
    });
    // A channel wanted, or given up, while this subscribed found no subscriber to ask: asked here.
    const late = [...channels].filter((channel) => !wanted.includes(channel));
    const gone = wanted.filter((channel) => !channels.has(channel));
    if (late.length > 0) await connection.subscribe(...late).catch(() => {});
    if (gone.length > 0) await connection.unsubscribe(...gone).catch(() => {});
  };

  /** After the subscriber was lost: tries until a node takes it, then tells `resumed`. */
  const reattach = async () => {
    while (!closed) {
      try {
        await attach();
        if (!closed) events.resumed();
        return;
      } catch {
        cluster.refreshSlotsCache();
        await sleep(RETRY_MS);
      }
    }
  };

  /** The first subscribe waits for the client's slot map; failing, it leaves nothing behind. */
  const connect = (): Promise<void> => {
    first ??= (async () => {
      if (cluster.status !== 'ready') {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(
            () => reject(new Error('the Redis Cluster client did not become ready')),
            cluster.options.redisOptions?.connectTimeout ?? 10_000,
          );
          cluster.once('ready', () => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      await attach();
    })().catch((error: unknown) => {
      first = undefined;
      throw error;
    });
    return first;
  };

  return {
    async subscribe(channel) {
      channels.add(channel);
      const made = first !== undefined;
      try {
        await connect();
        // A connection connect() makes subscribes every channel wanted; one made before is asked
        // here (while the subscriber moves, the move subscribes it).
        if (made) await subscriber?.subscribe(channel);
      } catch (error) {
        channels.delete(channel);
        throw error;
      }
    },
    async unsubscribe(channel) {
      channels.delete(channel);
      await subscriber?.unsubscribe(channel).catch(() => {});
    },
    close() {
      closed = true;
      channels.clear();
      const connection = subscriber;
      subscriber = undefined;
      connection?.disconnect();
    },
  };
}
