import { staleReadyReport } from '@berth/core';
import type { OverviewResponse, QueueOverview } from '../api-types.js';
import type { RequestContext } from '../http/context.js';
import { STALE_OVERVIEW_PAGES, tenantOverview } from './tenant-overview.js';

const sum = (rows: readonly (readonly number[])[], length: number): number[] =>
  Array.from({ length }, (_, index) => rows.reduce((total, row) => total + (row[index] ?? 0), 0));

/**
 * Counts per queue from one `stats()` call, and throughput from the in-process sampler (which
 * that same call feeds). A tenant-scoped dashboard cannot use `stats()` (it counts every tenant):
 * it reads that tenant's recent rows instead, within a stated bound.
 */
export async function overview(context: RequestContext): Promise<OverviewResponse> {
  const { driver, sampleMs, staleReadyAfterMs } = context.options;
  if (context.tenantId !== undefined) {
    return tenantOverview(driver, context.tenantId, sampleMs, staleReadyAfterMs);
  }
  context.sampler.start();
  const stats = await context.sampler.sample();
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
    };
  });
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
  };
}
