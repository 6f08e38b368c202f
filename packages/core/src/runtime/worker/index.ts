export { createWorker, DEFAULT_GRACE_MS } from './create-worker.js';
export { STOP_HANDBACK_MS, STOP_SLACK_MS } from './drain.js';
export type { LogLevel, RuntimeLogger } from './logger.js';
export { createConsoleLogger } from './logger.js';
export { ON_SETTLED_ATTEMPTS, ON_SETTLED_BACKOFF_MS } from './on-settled.js';
export { PROGRESS_FLUSH_MS, PROGRESS_INTERVAL_MS } from './progress-reporter.js';
export { SLOT_FREED_TTL_MS } from './slot-waits.js';
export {
  DEFAULT_KEY_BUSY_DELAY_MS,
  DEFAULT_POLL_INTERVAL_MS,
  DEFAULT_SETTLE_BATCH_MS,
} from './worker-options.js';
export type {
  StopOptions,
  SuspendReason,
  Worker,
  WorkerEventName,
  WorkerEvents,
  WorkerJobShape,
  WorkerJobsOf,
  WorkerOptions,
} from './worker-types.js';
