import type { Unsubscribe } from '@berth/core/driver';
import { createSettleWatch } from './settle-watch.js';
import type { Subscriber, SubscriberEvents } from './subscriber.js';
import { createWakeListeners } from './wake-listeners.js';

/** The pub/sub channels of a prefix, as the scripts publish them (keys.ts `wake`, `settled`). */
export interface WakeChannels {
  readonly wake: string;
  readonly settled: string;
}

export interface Wake {
  subscribe(
    queues: readonly string[],
    onWork: (queue: string) => void,
    onCancelled?: (jobId: string) => void,
  ): Promise<Unsubscribe>;
  watchSettles(onSettled: (jobIds: readonly string[]) => void): Promise<Unsubscribe>;
  close(): Promise<void>;
}

/**
 * Wake-ups and settle notices over the driver's one pub/sub connection (subscriber.ts, or
 * cluster-subscriber.ts). The wake channel is subscribed from the first `subscribe` on; the
 * settled channel only while someone watches, so workers never hear settles they do not want.
 * Each wake message is the NUL-joined queues of one change; after a gap in the connection every
 * wake listener is woken for each of its queues (the worker still polls). A settle notice lost
 * in a gap only delays a result wait to its poll.
 */
export function createWake(
  connect: (events: SubscriberEvents) => Subscriber,
  channels: WakeChannels,
): Wake {
  const listeners = createWakeListeners(channels.wake);
  const subscriber = connect({
    message: (from, message) => {
      if (from === channels.settled) settles.deliver(message);
      else listeners.deliver(from, message);
    },
    resumed: listeners.wakeAll,
  });
  const settles = createSettleWatch(subscriber, channels.settled);
  let woken: Promise<void> | undefined;
  let closed = false;

  const refuseClosed = () => {
    if (closed) throw new Error('the driver was closed');
  };

  return {
    async subscribe(queues, onWork, onCancelled) {
      refuseClosed();
      woken ??= subscriber.subscribe(channels.wake);
      const pending = woken;
      try {
        await pending;
      } catch (error) {
        // A failed subscribe leaves nothing behind: the next one tries afresh.
        if (woken === pending) woken = undefined;
        throw error;
      }
      return listeners.add(queues, onWork, onCancelled);
    },
    async watchSettles(onSettled) {
      refuseClosed();
      return settles.watch(onSettled);
    },
    async close() {
      closed = true;
      listeners.clear();
      settles.clear();
      woken = undefined;
      subscriber.close();
    },
  };
}
