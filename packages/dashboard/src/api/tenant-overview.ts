import { type Driver, JOB_STATES, type JobRecord, type JobState } from '@berth/core';
import type { OverviewResponse, QueueOverview, State } from '../api-types.js';
import { MinuteCounts, windowMinutes } from '../throughput/minutes.js';

/** Rows of one tenant read per state for its overview: counts past this are lower bounds. */
export const TENANT_SCAN = 200;

interface Tally {
  readonly counts: Record<State, number>;
  oldestReadyAgeMs: number | null;
  readonly completed: MinuteCounts;
  readonly failed: MinuteCounts;
}

const emptyCounts = (): Record<State, number> => ({
  ready: 0,
  delayed: 0,
  running: 0,
  suspended: 0,
  completed: 0,
  failed: 0,
  dead: 0,
  cancelled: 0,
});

/**
 * One tenant's overview from its rows: the newest TENANT_SCAN of each state (eight `list`
 * calls). Throughput buckets the `finishedAt` of the settled rows read, so it is exact while a
 * state has fewer than TENANT_SCAN rows and a lower bound past that.
 */
export async function tenantOverview(
  driver: Driver,
  tenantId: string,
  sampleMs: number,
): Promise<OverviewResponse> {
  const pages = await Promise.all(
    JOB_STATES.map(async (state) => ({
      state,
      page: await driver.list({ state, tenantId, limit: TENANT_SCAN }),
    })),
  );
  const now = driver.clock.now();
  const minuteStarts = windowMinutes(now);
  const windowStart = minuteStarts[0] ?? now;
  const tallies = new Map<string, Tally>();
  const total = { completed: new MinuteCounts(), failed: new MinuteCounts() };
  const capped: JobState[] = [];

  const tallyOf = (queue: string): Tally => {
    let found = tallies.get(queue);
    if (found === undefined) {
      found = {
        counts: emptyCounts(),
        oldestReadyAgeMs: null,
        completed: new MinuteCounts(),
        failed: new MinuteCounts(),
      };
      tallies.set(queue, found);
    }
    return found;
  };

  const count = (state: JobState, job: JobRecord): void => {
    const tally = tallyOf(job.queue);
    tally.counts[state] += 1;
    if (state === 'ready') {
      const age = Math.max(0, now - job.runAt);
      tally.oldestReadyAgeMs = Math.max(tally.oldestReadyAgeMs ?? 0, age);
    }
    const finished = job.finishedAt;
    if (finished === undefined || finished < windowStart) return;
    const series = state === 'completed' ? 'completed' : state === 'cancelled' ? null : 'failed';
    if (series === null) return;
    tally[series].add(finished, 1);
    total[series].add(finished, 1);
  };

  for (const { state, page } of pages) {
    if (page.next !== undefined) capped.push(state);
    for (const job of page.jobs) count(state, job);
  }

  const queues: QueueOverview[] = [...tallies.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([queue, tally]) => ({
      queue,
      counts: tally.counts,
      oldestReadyAgeMs: tally.oldestReadyAgeMs,
      capped,
      completed: tally.completed.over(minuteStarts),
      failed: tally.failed.over(minuteStarts),
    }));
  return {
    now,
    queues,
    throughput: {
      source: 'scanned',
      since: null,
      sampleMs,
      minuteStarts,
      completed: total.completed.over(minuteStarts),
      failed: total.failed.over(minuteStarts),
    },
  };
}
