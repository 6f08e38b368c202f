import type { Driver, JobRecord } from '@berth/core';
import { sleepUnless } from './nemesis/timeline.ts';

const UNFINISHED = ['ready', 'delayed', 'running', 'suspended'] as const;

/** Waits until no row of `queues` is unfinished, or `timeoutMs` passed. Answers whether it did. */
export async function settled(
  driver: Driver,
  queues: readonly string[],
  timeoutMs: number,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  const never = new AbortController().signal;
  while (Date.now() < deadline) {
    try {
      const stats = await driver.stats();
      const open = stats
        .filter((queue) => queues.includes(queue.queue))
        .reduce((sum, queue) => sum + UNFINISHED.reduce((n, s) => n + queue.counts[s], 0), 0);
      if (open === 0) return true;
    } catch {
      // the server is still coming back
    }
    await sleepUnless(250, never);
  }
  return false;
}

/**
 * A read that a backend still settling may refuse (a Sentinel client reconnecting after a
 * failover answers one call "Connection is closed"): tried again for up to ~10 s.
 */
async function getRetrying(driver: Driver, id: string): Promise<JobRecord | undefined> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await driver.get(id);
    } catch (error) {
      if (attempt >= 40) throw error;
      await sleepUnless(250, new AbortController().signal);
    }
  }
}

/** Each id's row as the backend holds it at the end (undefined: it holds none). */
export async function finalRecords(
  driver: Driver,
  ids: readonly string[],
): Promise<Map<string, JobRecord | undefined>> {
  const records = new Map<string, JobRecord | undefined>();
  const lanes = 16;
  let next = 0;
  const lane = async () => {
    while (next < ids.length) {
      const id = ids[next++] as string;
      records.set(id, await getRetrying(driver, id));
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  return records;
}
