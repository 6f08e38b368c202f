export { backoffDelay, DEFAULT_BACKOFF } from './backoff.js';
export { MAX_BATCH_WAIT_MS } from './batch-run.js';
export type {
  BatchAnswer,
  BatchContext,
  BatchImplementation,
  BatchItem,
  BatchJobOptions,
  BatchOptions,
} from './batch-types.js';
export type { DefineBatchJobWithPayload } from './define-batch-job.js';
export { defineBatchJob, implementBatchJob } from './define-batch-job.js';
export { declareJob, defineJob, implementJob } from './define-job.js';
export { toJobError } from './job-error.js';
export type {
  AnyJobContract,
  AnyJobDefinition,
  BackoffOptions,
  ConcurrencyOptions,
  JobContext,
  JobContract,
  JobContractOptions,
  JobDefinition,
  JobImplementation,
  JobInput,
  JobNameOf,
  JobOptions,
  JobPayload,
  JobResult,
  JobResultOf,
  ProgressValue,
  RateLimitOptions,
  ResolvedRetry,
  ResultValue,
  RetryOptions,
  SettledContext,
  SettledOutcome,
  WhenBusy,
} from './job-types.js';
export { WHEN_BUSY } from './job-types.js';
export { isRetryable, NonRetryableError } from './non-retryable.js';
export { RetryAfterError, retryAfterOf } from './retry-after.js';
export type { PayloadIssue } from './validate-payload.js';
