import { callListener, type Unsubscribe } from '@berth/core/driver';
import type { SettleListener, Store } from './store.js';

/** Adds a `watchSettles` listener; the answer removes it. */
export function watchSettles(store: Store, onSettled: SettleListener): Unsubscribe {
  store.settleListeners.add(onSettled);
  return async () => {
    store.settleListeners.delete(onSettled);
  };
}

/**
 * Notes that job `id` settled. The ids of one synchronous change (an `ackMany`, a claim that
 * buried several lapsed rows) reach each listener as one call, on a microtask after it.
 */
export function notifySettled(store: Store, id: string): void {
  if (store.settleListeners.size === 0) return;
  store.settledPending.push(id);
  if (store.settledPending.length > 1) return;
  queueMicrotask(() => {
    const ids = store.settledPending.splice(0);
    for (const listener of store.settleListeners) {
      callListener('a settle listener', () => listener(ids));
    }
  });
}
