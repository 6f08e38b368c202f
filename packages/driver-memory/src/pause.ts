import type { QueuePause } from '@berth/core/driver';
import type { Store } from './store.js';
import { notify } from './wake.js';

/** Paused queues: one map entry each, read by every claim (claim.ts). */

export function pause(store: Store, queue: string): QueuePause {
  let pausedAt = store.paused.get(queue);
  if (pausedAt === undefined) {
    pausedAt = store.clock.now();
    store.paused.set(queue, pausedAt);
  }
  return { queue, paused: true, pausedAt };
}

export function resume(store: Store, queue: string): QueuePause {
  store.paused.delete(queue);
  // Workers idle on the queue look again now, as after an enqueue.
  notify(store, [queue]);
  return { queue, paused: false };
}

export function listPaused(store: Store): QueuePause[] {
  return [...store.paused]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([queue, pausedAt]) => ({ queue, paused: true, pausedAt }));
}
