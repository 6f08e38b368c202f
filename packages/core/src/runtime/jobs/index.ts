export { backoffDelay, DEFAULT_BACKOFF } from './backoff.js';
export { defineJob } from './define-job.js';
export { toJobError } from './job-error.js';
export type {
  AnyJobDefinition,
  BackoffOptions,
  ConcurrencyOptions,
  JobContext,
  JobDefinition,
  JobInput,
  JobOptions,
  JobPayload,
  JobResult,
  RateLimitOptions,
  ResolvedRetry,
  RetryOptions,
  SettledContext,
  SettledOutcome,
} from './job-types.js';
export { isRetryable, NonRetryableError } from './non-retryable.js';
export type { PayloadIssue } from './validate-payload.js';
