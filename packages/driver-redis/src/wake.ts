import type { Unsubscribe } from '@berth/core';
import { type Cluster, Redis } from 'ioredis';

interface Listener {
  readonly queues: ReadonlySet<string>;
  readonly onWork: (queue: string) => void;
}

export interface Wake {
  subscribe(queues: readonly string[], onWork: (queue: string) => void): Promise<Unsubscribe>;
  close(): Promise<void>;
}

/**
 * Wake-ups over one pub/sub channel, on a connection of its own (a subscribed connection can run
 * nothing else), duplicated from the driver's on the first subscribe. ioredis reconnects it;
 * what was published while it was away is lost, so once it is subscribed again every listener
 * is woken for each of its queues (and the worker still polls). Each message is the NUL-joined
 * queues of one change.
 */
export function createWake(base: Redis | Cluster, channel: string): Wake {
  const listeners = new Set<Listener>();
  let subscriber: Redis | Cluster | undefined;
  let subscribed: Promise<unknown> | undefined;
  let closed = false;

  const tell = (listener: Listener, queue: string) => {
    try {
      listener.onWork(queue);
    } catch (error) {
      process.emitWarning(`berth: a redis wake listener threw: ${String(error)}`, 'BerthWarning');
    }
  };

  const deliver = (from: string, message: string) => {
    if (from !== channel) return;
    // The script lists each queue once.
    for (const queue of message.split('\0')) {
      for (const listener of listeners) if (listener.queues.has(queue)) tell(listener, queue);
    }
  };

  const wakeAll = () => {
    for (const listener of listeners) for (const queue of listener.queues) tell(listener, queue);
  };

  const connect = (): Promise<unknown> => {
    if (subscribed !== undefined) return subscribed;
    const connection = base instanceof Redis ? base.duplicate() : base.duplicate();
    connection.on('error', () => {});
    connection.on('message', deliver);
    let connectedBefore = false;
    connection.on('ready', () => {
      if (!connectedBefore) {
        connectedBefore = true;
        return;
      }
      // A reconnect: subscribed again (ioredis also does), whatever was missed gets a poll.
      connection.subscribe(channel).then(wakeAll, () => {});
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
    async subscribe(queues, onWork) {
      if (closed) throw new Error('the driver was closed');
      await connect();
      const listener: Listener = { queues: new Set(queues), onWork };
      listeners.add(listener);
      return async () => {
        listeners.delete(listener);
      };
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
