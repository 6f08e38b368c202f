import type { Unsubscribe } from '@berth/core/driver';
import type { Redis } from 'ioredis';
import { createWakeListeners } from './wake-listeners.js';

export interface Wake {
  subscribe(
    queues: readonly string[],
    onWork: (queue: string) => void,
    onCancelled?: (jobId: string) => void,
  ): Promise<Unsubscribe>;
  close(): Promise<void>;
}

/**
 * Wake-ups over one pub/sub channel, on a connection of its own (a subscribed connection can run
 * nothing else), duplicated from the driver's on the first subscribe. ioredis reconnects it;
 * what was published while it was away is lost, so once it is subscribed again every listener
 * is woken for each of its queues (and the worker still polls). Each message is the NUL-joined
 * queues of one change.
 */
export function createWake(base: Redis, channel: string): Wake {
  const listeners = createWakeListeners(channel);
  let subscriber: Redis | undefined;
  let subscribed: Promise<unknown> | undefined;
  let closed = false;

  const connect = (): Promise<unknown> => {
    if (subscribed !== undefined) return subscribed;
    const connection = base.duplicate();
    connection.on('error', () => {});
    connection.on('message', listeners.deliver);
    let connectedBefore = false;
    connection.on('ready', () => {
      if (!connectedBefore) {
        connectedBefore = true;
        return;
      }
      // A reconnect: subscribed again (ioredis also does), whatever was missed gets a poll.
      connection.subscribe(channel).then(listeners.wakeAll, () => {});
    });
    subscriber = connection;
    const pending = connection.subscribe(channel).catch((error: unknown) => {
      // A failed first subscribe leaves nothing behind: the next subscribe tries afresh.
      subscriber = undefined;
      subscribed = undefined;
      connection.disconnect();
      throw error;
    });
    subscribed = pending;
    return pending;
  };

  return {
    async subscribe(queues, onWork, onCancelled) {
      if (closed) throw new Error('the driver was closed');
      await connect();
      return listeners.add(queues, onWork, onCancelled);
    },
    async close() {
      closed = true;
      listeners.clear();
      const connection = subscriber;
      subscriber = undefined;
      subscribed = undefined;
      if (connection !== undefined) connection.disconnect();
    },
  };
}
