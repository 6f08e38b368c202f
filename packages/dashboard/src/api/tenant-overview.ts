import {
  type Driver,
  JOB_STATES,
  type JobRecord,
  type JobState,
  SettledTally,
  staleReadyReport,
  windowMinutes,
} from '@berth/core';
import type { OverviewResponse, QueueOverview, State } from '../api-types.js';

/**
 * List pages (100 rows) read per queue whose oldest ready job is stale, per overview request
 * (both scopes): the stale-names section's bound.
 */
export const STALE_OVERVIEW_PAGES = 2;

/** Rows of one tenant read per state for its overview: counts past this are lower bounds. */
export const TENANT_SCAN = 200;

interface Tally {
  readonly counts: Record<State, number>;
  oldestReadyAgeMs: number | null;
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
 * state has fewer than TENANT_SCAN rows and a lower bound past that. The concurrency keys are
 * the caller's (`concurrencyKeys`, over the tenant's running rows).
 */
export async function tenantOverview(
  driver: Driver,
  tenantId: string,
  sampleMs: number,
  staleReadyAfterMs: number,
): Promise<Omit<OverviewResponse, 'concurrency'>> {
  const pages = await Promise.all(
    JOB_STATES.map(async (state) => ({
      state,
      page: await driver.list({ state, tenantId, limit: TENANT_SCAN }),
    })),
  );
  const now = driver.clock.now();
  const minuteStarts = windowMinutes(now);
  const tallies = new Map<string, Tally>();
  const settled = new SettledTally(minuteStarts);
  const capped: JobState[] = [];

  const tallyOf = (queue: string): Tally => {
    let found = tallies.get(queue);
    if (found === undefined) {
      found = { counts: emptyCounts(), oldestReadyAgeMs: null };
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
    settled.add(state, job);
  };

  for (const { state, page } of pages) {
    if (page.next !== undefined) capped.push(state);
    for (const job of page.jobs) count(state, job);
  }

  const series = settled.perQueue();
  const zeros = minuteStarts.map(() => 0);
  const total = settled.total();
  const queues: QueueOverview[] = [...tallies.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([queue, tally]) => ({
      queue,
      counts: tally.counts,
      oldestReadyAgeMs: tally.oldestReadyAgeMs,
      capped,
      completed: series.get(queue)?.completed ?? zeros,
      failed: series.get(queue)?.failed ?? zeros,
    }));
  const stale = await staleReadyReport(driver, queues, {
    staleAfterMs: staleReadyAfterMs,
    pages: STALE_OVERVIEW_PAGES,
    tenantId,
  });
  return {
    now,
    queues,
    stale,
    throughput: {
      source: 'scanned',
      since: null,
      sampleMs,
      minuteStarts,
      completed: total.completed,
      failed: total.failed,
    },
  };
}
