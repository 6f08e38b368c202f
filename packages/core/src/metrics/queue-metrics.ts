import type { Driver } from '../contract/driver.js';
import { JOB_STATES } from '../contract/states.js';
import { type BatchObserver, type MetricsMeter, meterOf } from './meter.js';

export interface QueueMetricsOptions {
  readonly driver: Driver;
  /** Default: `@berth/core`'s meter from the global meter provider. */
  readonly meter?: MetricsMeter;
}

/** Stops a set of instruments from being observed or recorded. */
export interface MetricsHandle {
  stop(): void;
}

const EXAMPLE = 'await instrumentQueues({ driver, meter: meterProvider.getMeter("berth") })';

/**
 * Observes every queue's depth per state (`berth.queue.jobs`) and the age of its oldest ready
 * job (`berth.queue.oldest_ready_age`, seconds) at each collection, from ONE `driver.stats()`
 * call: the numbers `berth stats` and the dashboard's overview read.
 */
export async function instrumentQueues(options: QueueMetricsOptions): Promise<MetricsHandle> {
  const meter = await meterOf(options.meter, EXAMPLE);
  const { driver } = options;
  const jobs = meter.createObservableGauge('berth.queue.jobs', {
    description: 'Jobs in each queue, by state',
    unit: '{job}',
  });
  const oldest = meter.createObservableGauge('berth.queue.oldest_ready_age', {
    description: 'How long the oldest ready job of each queue has waited (0 when none is ready)',
    unit: 's',
  });
  const observe = async (result: BatchObserver) => {
    for (const stats of await driver.stats()) {
      const queue = { 'messaging.destination.name': stats.queue };
      for (const state of JOB_STATES) {
        result.observe(jobs, stats.counts[state], { ...queue, 'berth.job.state': state });
      }
      result.observe(oldest, (stats.oldestReadyAgeMs ?? 0) / 1_000, queue);
    }
  };
  meter.addBatchObservableCallback(observe, [jobs, oldest]);
  return { stop: () => meter.removeBatchObservableCallback(observe, [jobs, oldest]) };
}
