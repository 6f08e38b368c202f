import type { Driver } from '../contract/driver.js';

type DueListener = (queue: string, at: number) => void;

// Per driver object: a client and a worker of one process that share a driver share this.
const hubs = new WeakMap<Driver, Set<DueListener>>();

/**
 * Tells this process's workers on `driver` of a delayed job a client enqueued: a worker claims
 * it when it becomes due, not at its next poll. Workers of other processes find it at a poll.
 */
export function announceDue(driver: Driver, queue: string, at: number): void {
  const listeners = hubs.get(driver);
  if (listeners === undefined) return;
  for (const listener of listeners) listener(queue, at);
}

/** Listens for delayed jobs enqueued through `driver`; answers a function that stops. */
export function onDue(driver: Driver, listener: DueListener): () => void {
  let listeners = hubs.get(driver);
  if (listeners === undefined) {
    listeners = new Set();
    hubs.set(driver, listeners);
  }
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
