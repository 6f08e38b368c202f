import { type Driver, MinuteCounts, type QueueStats, windowMinutes } from '@berth/core';

interface Totals {
  readonly completed: number;
  readonly failed: number;
}

interface QueueSeries {
  readonly completed: MinuteCounts;
  readonly failed: MinuteCounts;
}

export interface SampledThroughput {
  readonly since: number | null;
  readonly minuteStarts: readonly number[];
  readonly perQueue: ReadonlyMap<string, { completed: number[]; failed: number[] }>;
}

/**
 * Throughput without a history table: `stats()` counts per queue, read in this process every
 * `sampleMs` (and on every overview request); the growth of `completed` and of `failed + dead`
 * between two readings is put in the minute of the later one. A count that shrank (a purge or
 * retention sweep) adds nothing. The chart therefore starts when this process first sampled.
 */
export interface ThroughputSampler {
  /**
   * Reads `stats()` and records it. Readings never overlap (a caller during one shares it), so
   * two readings can never be recorded out of order and count the same jobs twice.
   */
  sample(): Promise<readonly QueueStats[]>;
  read(now: number): SampledThroughput;
  /** Starts the background readings (idempotent); the timer never keeps the process alive. */
  start(): void;
  stop(): void;
}

const totalsOf = (stats: QueueStats): Totals => ({
  completed: stats.counts.completed,
  failed: stats.counts.failed + stats.counts.dead,
});

export function createThroughputSampler(driver: Driver, sampleMs: number): ThroughputSampler {
  let previous: Map<string, Totals> | undefined;
  let since: number | null = null;
  const series = new Map<string, QueueSeries>();
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<readonly QueueStats[]> | undefined;

  const seriesOf = (queue: string): QueueSeries => {
    let found = series.get(queue);
    if (found === undefined) {
      found = { completed: new MinuteCounts(), failed: new MinuteCounts() };
      series.set(queue, found);
    }
    return found;
  };

  const observe = (stats: readonly QueueStats[], now: number): void => {
    const current = new Map(stats.map((entry) => [entry.queue, totalsOf(entry)]));
    if (previous !== undefined) {
      for (const [queue, totals] of current) {
        // A queue first seen since the last reading had nothing settled at that reading.
        const before = previous.get(queue) ?? { completed: 0, failed: 0 };
        const target = seriesOf(queue);
        target.completed.add(now, totals.completed - before.completed);
        target.failed.add(now, totals.failed - before.failed);
      }
    } else {
      since = now;
    }
    previous = current;
    const oldest = windowMinutes(now)[0] ?? now;
    for (const entry of series.values()) {
      entry.completed.prune(oldest);
      entry.failed.prune(oldest);
    }
  };

  const sample = (): Promise<readonly QueueStats[]> => {
    inFlight ??= driver
      .stats()
      .then((stats) => {
        observe(stats, driver.clock.now());
        return stats;
      })
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  };

  return {
    sample,
    read(now) {
      const minuteStarts = windowMinutes(now);
      const perQueue = new Map<string, { completed: number[]; failed: number[] }>();
      for (const [queue, entry] of series) {
        perQueue.set(queue, {
          completed: entry.completed.over(minuteStarts),
          failed: entry.failed.over(minuteStarts),
        });
      }
      return { since, minuteStarts, perQueue };
    },
    start() {
      if (timer !== undefined) return;
      timer = setInterval(() => {
        // A failed reading is skipped; the next one measures across the gap.
        sample().catch(() => {});
      }, sampleMs);
      timer.unref();
    },
    stop() {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
    },
  };
}
