import type { Driver } from '../contract/driver.js';
import { JOB_STATES } from '../contract/states.js';
import {
  type ConcurrencyInUseOptions,
  concurrencyInUse,
  resolveConcurrencyInUse,
} from './concurrency-in-use.js';
import { type BatchObserver, type MetricsMeter, meterOf } from './meter.js';

export interface QueueMetricsOptions {
  readonly driver: Driver;
  /** Default: `@berth/core`'s meter from the global meter provider. */
  readonly meter?: MetricsMeter;
  /**
   * Per-key concurrency in use (`berth.concurrency.in_use`): how many keys at most (`top`,
   * default 50, the busiest) and running jobs read at most (`maxRunning`, default 5,000) at each
   * collection; `false` reports none and reads no running jobs.
   */
  readonly concurrencyKeys?: ConcurrencyInUseOptions | false;
}

/** Stops a set of instruments from being observed or recorded. */
export interface MetricsHandle {
  stop(): void;
}

const EXAMPLE = 'await instrumentQueues({ driver, meter: meterProvider.getMeter("berth") })';

/**
 * Observes every queue's depth per state (`berth.queue.jobs`) and the age of its oldest ready
 * job (`berth.queue.oldest_ready_age`, seconds) at each collection, from ONE `driver.stats()`
 * call, and the busiest concurrency keys' running jobs (`berth.concurrency.in_use`, per
 * `berth.job.name` and `berth.concurrency.key`, from {@link concurrencyInUse}): the numbers
 * `berth stats` and the dashboard's overview read.
 */
export async function instrumentQueues(options: QueueMetricsOptions): Promise<MetricsHandle> {
  const meter = await meterOf(options.meter, EXAMPLE);
  const { driver } = options;
  // Screened now, not at the first collection, where a refusal would go unseen.
  const keyed =
    options.concurrencyKeys === false
      ? false
      : resolveConcurrencyInUse(options.concurrencyKeys ?? {});
  const jobs = meter.createObservableGauge('berth.queue.jobs', {
    description: 'Jobs in each queue, by state',
    unit: '{job}',
  });
  const oldest = meter.createObservableGauge('berth.queue.oldest_ready_age', {
    description: 'How long the oldest ready job of each queue has waited (0 when none is ready)',
    unit: 's',
  });
  const inUse = meter.createObservableGauge('berth.concurrency.in_use', {
    description: 'Running jobs per job name and concurrency key: slots of the key in use',
    unit: '{job}',
  });
  const observe = async (result: BatchObserver) => {
    const [queues, keys] = await Promise.all([
      driver.stats(),
      keyed === false ? undefined : concurrencyInUse(driver, keyed),
    ]);
    for (const stats of queues) {
      const queue = { 'messaging.destination.name': stats.queue };
      for (const state of JOB_STATES) {
        result.observe(jobs, stats.counts[state], { ...queue, 'berth.job.state': state });
      }
      result.observe(oldest, (stats.oldestReadyAgeMs ?? 0) / 1_000, queue);
    }
    for (const use of keys?.keys ?? []) {
      result.observe(inUse, use.running, {
        'berth.job.name': use.name,
        'berth.concurrency.key': use.key,
      });
    }
  };
  const observed = [jobs, oldest, inUse];
  meter.addBatchObservableCallback(observe, observed);
  return { stop: () => meter.removeBatchObservableCallback(observe, observed) };
}
