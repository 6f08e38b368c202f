export type {
  ConcurrencyInUse,
  ConcurrencyInUseOptions,
  ConcurrencyKeyUse,
} from './concurrency-in-use.js';
export { concurrencyInUse } from './concurrency-in-use.js';
export type {
  BatchObserver,
  InstrumentOptions,
  MetricsMeter,
  ObservableInstrument,
} from './meter.js';
export type { MetricsHandle, QueueMetricsOptions } from './queue-metrics.js';
export { instrumentQueues } from './queue-metrics.js';
export type { WorkerMetricsOptions } from './worker-metrics.js';
export { instrumentWorker } from './worker-metrics.js';
