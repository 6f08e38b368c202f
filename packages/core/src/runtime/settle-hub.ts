import type { Driver } from '../contract/driver.js';

type SettleListener = () => void;

// Per driver object, then per job id: a worker and a client of one process that share a driver.
const hubs = new WeakMap<Driver, Map<string, Set<SettleListener>>>();

/**
 * Tells this process's waits on `driver` (`result()`, `enqueueAndWait`) that job `jobId`
 * settled for good (completed, failed, dead or cancelled): they look at the row at once instead
 * of at their next poll. A wait in another process finds the settle at its poll.
 */
export function announceJobSettled(driver: Driver, jobId: string): void {
  const listeners = hubs.get(driver)?.get(jobId);
  if (listeners === undefined) return;
  for (const listener of listeners) listener();
}

/** Listens for job `jobId` settling through `driver`; answers a function that stops. */
export function onJobSettled(driver: Driver, jobId: string, listener: SettleListener): () => void {
  let byJob = hubs.get(driver);
  if (byJob === undefined) {
    byJob = new Map();
    hubs.set(driver, byJob);
  }
  let listeners = byJob.get(jobId);
  if (listeners === undefined) {
    listeners = new Set();
    byJob.set(jobId, listeners);
  }
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) byJob.delete(jobId);
  };
}
