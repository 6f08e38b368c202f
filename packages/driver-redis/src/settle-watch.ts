import { callListener, type Unsubscribe } from '@berth/core/driver';
import type { Subscriber } from './subscriber.js';

type SettleListener = (jobIds: readonly string[]) => void;

/** `watchSettles` over the settled channel, subscribed only while someone watches. */
export interface SettleWatch {
  watch(onSettled: SettleListener): Promise<Unsubscribe>;
  /** A message on the settled channel: the NUL-joined ids of one change (lua `tellSettled`). */
  deliver(message: string): void;
  clear(): void;
}

export function createSettleWatch(subscriber: Subscriber, channel: string): SettleWatch {
  // One entry per watch, so a function watching twice is still heard after one stops.
  const listeners = new Set<{ readonly onSettled: SettleListener }>();
  /** The channel's SUBSCRIBE while someone watches: every watch waits on it. */
  let subscribed: Promise<void> | undefined;

  return {
    async watch(onSettled) {
      const listener = { onSettled };
      listeners.add(listener);
      subscribed ??= subscriber.subscribe(channel);
      const pending = subscribed;
      try {
        await pending;
      } catch (error) {
        listeners.delete(listener);
        if (subscribed === pending) subscribed = undefined;
        throw error;
      }
      return async () => {
        if (!listeners.delete(listener) || listeners.size > 0) return;
        // One connection runs both in order: a watch made after this subscribes again.
        subscribed = undefined;
        await subscriber.unsubscribe(channel);
      };
    },
    deliver(message) {
      const jobIds = message.split('\0');
      for (const { onSettled } of listeners) {
        callListener('a redis settle listener', () => onSettled(jobIds));
      }
    },
    clear() {
      listeners.clear();
      subscribed = undefined;
    },
  };
}
