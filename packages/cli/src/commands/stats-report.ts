import {
  type ConcurrencyInUse,
  concurrencyInUse,
  type Driver,
  type QueueStats,
  type StaleReadyReport,
  scanThroughput,
  staleReadyReport,
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
  readonly stale: StaleReadyReport;
  /** Running jobs per job name and concurrency key, the busiest `keys` of them. */
  readonly concurrency: ConcurrencyInUse;
}

const perMinute = (counts: readonly number[], minutes: number): number =>
  Math.round((counts.reduce((sum, count) => sum + count, 0) / minutes) * 100) / 100;

/**
 * `stats()`, throughput from the settled rows' `finishedAt`, and the names whose oldest ready
 * job waited longer than `staleAfterMs` (queues whose oldest ready job is that old, each read
 * within STALE_PAGES pages), and the `keys` concurrency keys with the most jobs running.
 */
export async function statsReport(
  driver: Driver,
  options: { readonly minutes: number; readonly staleAfterMs: number; readonly keys: number },
): Promise<StatsReport> {
  const queues = await driver.stats();
  const scanned = await scanThroughput(driver, {
    minutes: options.minutes,
    pages: THROUGHPUT_PAGES,
  });
  const stale = await staleReadyReport(driver, queues, {
    staleAfterMs: options.staleAfterMs,
    pages: STALE_PAGES,
  });
  const concurrency = await concurrencyInUse(driver, { top: options.keys });
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
    stale,
    concurrency,
  };
}
