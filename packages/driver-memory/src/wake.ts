import { callListenerLater, type Unsubscribe } from '@berth/core/driver';
import type { Store, WakeListener } from './store.js';

/** Adds a listener for `queues`; the answer removes it. */
export function subscribe(
  store: Store,
  queues: readonly string[],
  onWork: (queue: string) => void,
  onCancelled?: (jobId: string) => void,
): Unsubscribe {
  const listener: WakeListener = { queues: new Set(queues), onWork, onCancelled };
  store.listeners.add(listener);
  return async () => {
    store.listeners.delete(listener);
  };
}

/** Calls `call` on a microtask, unless `listener` left meanwhile; a throw is only a warning. */
function deliver(store: Store, listener: WakeListener, call: () => void): void {
  callListenerLater('a wake listener', () => store.listeners.has(listener), call);
}

/**
 * Tells listeners that one change made work in `queues`: once per distinct queue, never once per
 * row. Delivered on a microtask, after the change, so a listener cannot break or reorder it.
 */
export function notify(store: Store, queues: Iterable<string>): void {
  const distinct = new Set(queues);
  if (distinct.size === 0 || store.listeners.size === 0) return;
  for (const listener of store.listeners) {
    for (const queue of distinct) {
      if (listener.queues.has(queue)) deliver(store, listener, () => listener.onWork(queue));
    }
  }
}

/** Tells the listeners of `queue` that its running job `jobId` was cancelled, as `notify` does. */
export function notifyCancelled(store: Store, queue: string, jobId: string): void {
  for (const listener of store.listeners) {
    const { onCancelled } = listener;
    if (onCancelled !== undefined && listener.queues.has(queue)) {
      deliver(store, listener, () => onCancelled(jobId));
    }
  }
}
