import {
  type Driver,
  findStaleReady,
  type QueueStats,
  type StaleReadyName,
  scanThroughput,
} from '@berth/core';

/** List pages read per settled state for throughput (500 rows each): past them, lower bounds. */
export const THROUGHPUT_PAGES = 4;
/** List pages read per queue looking for stale ready names (100 rows each). */
export const STALE_PAGES = 10;

export interface QueueThroughput {
  readonly queue: string;
  /** Per minute, oldest first, aligned with `minuteStarts`; the current minute is the last. */
  readonly completed: readonly number[];
  /** `failed` and `dead` together. */
  readonly failed: readonly number[];
  /** Averages over the window's minutes. */
  readonly completedPerMinute: number;
  readonly failedPerMinute: number;
}

export interface StatsReport {
  readonly at: number;
  readonly queues: readonly QueueStats[];
  readonly throughput: {
    readonly minutes: number;
    readonly minuteStarts: readonly number[];
    readonly queues: readonly QueueThroughput[];
    /** Settled states with more rows than were read: their counts are lower bounds. */
    readonly capped: readonly string[];
  };
  readonly stale: {
    readonly afterMs: number;
    readonly names: readonly StaleReadyName[];
    /** Queues whose ready rows were not all read: more names may be there. */
    readonly partial: readonly string[];
  };
}

const perMinute = (counts: readonly number[], minutes: number): number =>
  Math.round((counts.reduce((sum, count) => sum + count, 0) / minutes) * 100) / 100;

/**
 * `stats()`, throughput from the settled rows' `finishedAt`, and the names whose oldest ready
 * job waited longer than `staleAfterMs`. Only queues whose oldest ready job is that old are read
 * for names, each within STALE_PAGES pages.
 */
export async function statsReport(
  driver: Driver,
  options: { readonly minutes: number; readonly staleAfterMs: number },
): Promise<StatsReport> {
  const queues = await driver.stats();
  const scanned = await scanThroughput(driver, {
    minutes: options.minutes,
    pages: THROUGHPUT_PAGES,
  });
  const names: StaleReadyName[] = [];
  const partial: string[] = [];
  for (const entry of queues) {
    if (entry.oldestReadyAgeMs === null || entry.oldestReadyAgeMs < options.staleAfterMs) continue;
    const found = await findStaleReady(driver, {
      queue: entry.queue,
      staleAfterMs: options.staleAfterMs,
      pages: STALE_PAGES,
    });
    names.push(...found.names);
    if (found.next !== undefined) partial.push(entry.queue);
  }
  const zeros = scanned.minuteStarts.map(() => 0);
  const throughputQueues = [
    ...new Set([...queues.map((entry) => entry.queue), ...scanned.perQueue.keys()]),
  ]
    .sort()
    .map((queue) => {
      const series = scanned.perQueue.get(queue) ?? { completed: zeros, failed: zeros };
      return {
        queue,
        completed: series.completed,
        failed: series.failed,
        completedPerMinute: perMinute(series.completed, options.minutes),
        failedPerMinute: perMinute(series.failed, options.minutes),
      };
    });
  return {
    at: driver.clock.now(),
    queues,
    throughput: {
      minutes: options.minutes,
      minuteStarts: scanned.minuteStarts,
      queues: throughputQueues,
      capped: scanned.capped,
    },
    stale: { afterMs: options.staleAfterMs, names, partial },
  };
}
