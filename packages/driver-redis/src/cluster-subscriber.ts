import { setTimeout as sleep } from 'node:timers/promises';
import type { Unsubscribe } from '@berth/core/driver';
import type { Cluster, Redis } from 'ioredis';
import type { Wake } from './wake.js';
import { createWakeListeners } from './wake-listeners.js';

/** How long a resubscribe waits between tries while no node takes it. */
const RETRY_MS = 200;

/**
 * Wake-ups on a Redis Cluster. A PUBLISH (the scripts' included) reaches every node over the
 * cluster bus, so one subscriber on any node hears every change of the prefix: it is a
 * connection of its own to a master the cluster client knows, made without reconnects of its
 * own. When that node goes away (killed, failed over) the subscriber moves to another node the
 * client knows by then, and every listener is woken once for each of its queues: what was
 * published meanwhile is lost (the worker still polls).
 */
export function createClusterWake(cluster: Cluster, channel: string): Wake {
  const listeners = createWakeListeners(channel);
  let subscriber: Redis | undefined;
  let first: Promise<void> | undefined;
  let closed = false;

  /** A node to listen on: a master, else any node; none before the client has the slot map. */
  const pick = (): Redis | undefined => {
    const masters = cluster.nodes('master');
    const nodes = masters.length > 0 ? masters : cluster.nodes('all');
    return nodes[Math.floor(Math.random() * nodes.length)];
  };

  /** Subscribes once on a node; answers the connection, or throws what went wrong. */
  const attach = async (): Promise<Redis> => {
    const node = pick();
    if (node === undefined) throw new Error('the Redis Cluster client knows no node yet');
    const connection = node.duplicate({
      lazyConnect: false,
      retryStrategy: () => null,
      enableOfflineQueue: true,
      maxRetriesPerRequest: 0,
    });
    connection.on('error', () => {});
    connection.on('message', listeners.deliver);
    try {
      await connection.subscribe(channel);
    } catch (error) {
      connection.disconnect();
      throw error;
    }
    if (closed) {
      connection.disconnect();
      return connection;
    }
    subscriber = connection;
    connection.once('end', () => {
      if (subscriber !== connection || closed) return;
      subscriber = undefined;
      void reattach();
    });
    return connection;
  };

  /** After the subscriber was lost: tries until a node takes it, then wakes everyone once. */
  const reattach = async () => {
    while (!closed) {
      try {
        await attach();
        if (!closed) listeners.wakeAll();
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
    async subscribe(queues, onWork, onCancelled): Promise<Unsubscribe> {
      if (closed) throw new Error('the driver was closed');
      await connect();
      return listeners.add(queues, onWork, onCancelled);
    },
    async close() {
      closed = true;
      listeners.clear();
      const connection = subscriber;
      subscriber = undefined;
      connection?.disconnect();
    },
  };
}
