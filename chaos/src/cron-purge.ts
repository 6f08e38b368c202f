import type { Driver } from '@berth/core';
import { CRON_JOB } from './child/jobs.ts';
import { sleepUnless } from './nemesis/timeline.ts';

const PURGE_EVERY_MS = 300;
// Far more than the cron jobs that can complete between two passes (one a second).
const PAGE = 100;

/**
 * Removes completed cron jobs over and over, so a scheduler that enqueued a slot again after a
 * failover would be seen running it twice. Only jobs it read as `completed` are purged, and
 * their ids are kept in `seenCompleted`: a worker killed (or cut off by a server crash) after its
 * ack landed but before it wrote its `completed` line leaves the backend as the only witness,
 * and the purge would otherwise erase it.
 */
export async function purgeCronJobs(
  driver: Driver,
  seenCompleted: Set<string>,
  signal: AbortSignal,
): Promise<void> {
  while (!signal.aborted) {
    try {
      const page = await driver.list({ state: 'completed', name: CRON_JOB, limit: PAGE });
      const ids = page.jobs.map((job) => job.id);
      for (const id of ids) seenCompleted.add(id);
      if (ids.length > 0) {
        await driver.purge({ states: ['completed'], olderThan: Date.now(), ids });
      }
    } catch {
      // the server is down (a crash nemesis): the next pass reads again
    }
    await sleepUnless(PURGE_EVERY_MS, signal);
  }
}
