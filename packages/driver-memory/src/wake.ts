import type { Unsubscribe } from '@berth/core';
import type { Store, WakeListener } from './store.js';

/** Adds a listener for `queues`; the answer removes it. */
export function subscribe(
  store: Store,
  queues: readonly string[],
  onWork: (queue: string) => void,
): Unsubscribe {
  const listener: WakeListener = { queues: new Set(queues), onWork };
  store.listeners.add(listener);
  return async () => {
    store.listeners.delete(listener);
  };
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
      if (!listener.queues.has(queue)) continue;
      queueMicrotask(() => {
        if (!store.listeners.has(listener)) return;
        try {
          listener.onWork(queue);
        } catch (error) {
          process.emitWarning(`berth: a wake listener threw: ${String(error)}`, 'BerthWarning');
        }
      });
    }
  }
}
