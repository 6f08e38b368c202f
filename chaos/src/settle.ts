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
      records.set(id, await driver.get(id));
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  return records;
}
