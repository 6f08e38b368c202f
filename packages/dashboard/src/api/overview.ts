import { JOB_STATES, staleReadyReport } from '@berth/core';
import type { OverviewResponse, QueueOverview } from '../api-types.js';
import type { RequestContext } from '../http/context.js';
import { concurrencyKeys } from './concurrency-keys.js';
import { pausedQueues } from './queue-pauses.js';
import { STALE_OVERVIEW_PAGES, tenantOverview } from './tenant-overview.js';

const sum = (rows: readonly (readonly number[])[], length: number): number[] =>
  Array.from({ length }, (_, index) => rows.reduce((total, row) => total + (row[index] ?? 0), 0));

const withPause = (paused: ReadonlyMap<string, number>, queue: string) => {
  const pausedAt = paused.get(queue);
  return pausedAt === undefined ? {} : { pausedAt };
};

const emptyQueue = (queue: string, zeros: readonly number[]): QueueOverview => ({
  queue,
  counts: Object.fromEntries(JOB_STATES.map((state) => [state, 0])) as QueueOverview['counts'],
  oldestReadyAgeMs: null,
  capped: [],
  completed: zeros,
  failed: zeros,
});

/**
 * Counts per queue from one `stats()` call, and throughput from the in-process sampler (which
 * that same call feeds). A tenant-scoped dashboard cannot use `stats()` (it counts every tenant):
 * it reads that tenant's recent rows instead, within a stated bound. The concurrency keys in use
 * are read from the running jobs, the tenant's own when scoped (see `concurrencyKeys`).
 */
export async function overview(context: RequestContext): Promise<OverviewResponse> {
  const { driver, sampleMs, staleReadyAfterMs } = context.options;
  const { tenantId } = context;
  if (tenantId !== undefined) {
    const [scoped, concurrency] = await Promise.all([
      tenantOverview(driver, tenantId, sampleMs, staleReadyAfterMs),
      concurrencyKeys(driver, tenantId),
    ]);
    return { ...scoped, concurrency };
  }
  context.sampler.start();
  const [stats, paused, concurrency] = await Promise.all([
    context.sampler.sample(),
    pausedQueues(context),
    concurrencyKeys(driver, undefined),
  ]);
  const now = driver.clock.now();
  const sampled = context.sampler.read(now);
  const zeros = sampled.minuteStarts.map(() => 0);
  const queues: QueueOverview[] = stats.map((entry) => {
    const series = sampled.perQueue.get(entry.queue);
    return {
      queue: entry.queue,
      counts: entry.counts,
      oldestReadyAgeMs: entry.oldestReadyAgeMs,
      capped: [],
      completed: series?.completed ?? zeros,
      failed: series?.failed ?? zeros,
      ...withPause(paused, entry.queue),
    };
  });
  // A paused queue that holds no row still shows, so it can be resumed.
  for (const [queue, pausedAt] of paused) {
    if (!queues.some((entry) => entry.queue === queue)) {
      queues.push({ ...emptyQueue(queue, zeros), pausedAt });
    }
  }
  queues.sort((a, b) => (a.queue < b.queue ? -1 : a.queue > b.queue ? 1 : 0));
  // Totals include queues purged away since: their jobs still ran in the window.
  const all = [...sampled.perQueue.values()];
  const length = sampled.minuteStarts.length;
  const stale = await staleReadyReport(driver, stats, {
    staleAfterMs: staleReadyAfterMs,
    pages: STALE_OVERVIEW_PAGES,
  });
  return {
    now,
    queues,
    throughput: {
      source: 'sampled',
      since: sampled.since,
      sampleMs,
      minuteStarts: sampled.minuteStarts,
      completed: sum(
        all.map((series) => series.completed),
        length,
      ),
      failed: sum(
        all.map((series) => series.failed),
        length,
      ),
    },
    stale,
    concurrency,
  };
}
