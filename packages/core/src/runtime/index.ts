// The runtime's public surface. Each part appends its own export lines here.

export type { BackgroundLogger, LogFields } from './background-logger.js';
export { silentLogger } from './background-logger.js';
export type {
  Client,
  ClientLifecycle,
  ClientOptions,
  DebounceOptions,
  EnqueueAndWaitOptions,
  EnqueueItem,
  EnqueueOptions,
  JobHandle,
  ThrottleOptions,
  TypedJobRecord,
  WaitOptions,
} from './client/index.js';
export {
  createClient,
  DEFAULT_RESULT_TIMEOUT_MS,
  MAX_DEBOUNCE_MS,
  MAX_THROTTLE_MS,
  RESULT_POLL_MAX_MS,
  RESULT_POLL_MIN_MS,
} from './client/index.js';
export type {
  AnyEventDefinition,
  EventDefinition,
  EventInput,
  EventOptions,
  EventPayload,
} from './events/index.js';
export { defineEvent } from './events/index.js';
export type {
  ChildFailedState,
  ChildFailurePolicy,
  ChildOutcome,
  FlowChild,
  FlowEnqueued,
  FlowInput,
  InvokeOptions,
} from './flows/flow-types.js';
export { MAX_FLOW_CHILDREN } from './flows/flow-types.js';
export type {
  AnyJobContract,
  AnyJobDefinition,
  BackoffOptions,
  BatchAnswer,
  BatchContext,
  BatchImplementation,
  BatchItem,
  BatchJobOptions,
  BatchOptions,
  ConcurrencyOptions,
  DefineBatchJobWithPayload,
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
  PayloadIssue,
  ProgressValue,
  RateLimitOptions,
  ResolvedRetry,
  ResultValue,
  RetryOptions,
  SettledContext,
  SettledOutcome,
  WhenBusy,
} from './jobs/index.js';
export {
  backoffDelay,
  DEFAULT_BACKOFF,
  declareJob,
  defineBatchJob,
  defineJob,
  implementBatchJob,
  implementJob,
  isRetryable,
  MAX_BATCH_WAIT_MS,
  NonRetryableError,
  RetryAfterError,
  toJobError,
  WHEN_BUSY,
} from './jobs/index.js';
export type { LifecycleTailOptions } from './lifecycle/tail.js';
export {
  DEFAULT_TAIL_POLL_MS,
  MAX_TAIL_POLL_MS,
  MIN_TAIL_POLL_MS,
  tailLifecycle,
} from './lifecycle/tail.js';
export type { JobLog } from './logs/index.js';
export { formatLogValues, LOG_FLUSH_MS, LOG_SETTLE_WAIT_MS } from './logs/index.js';
export type {
  Retention,
  RetentionKeep,
  RetentionOptions,
  RetentionSweep,
} from './retention/index.js';
export { createRetention } from './retention/index.js';
export type {
  EnqueuedSlot,
  ScheduleDefinition,
  ScheduledJob,
  SchedulePayload,
  Scheduler,
  SchedulerOptions,
  SchedulerTick,
} from './scheduler/index.js';
export {
  createScheduler,
  slotJobId,
  slotKey,
  slotMarkName,
} from './scheduler/index.js';
export type {
  ScheduleControl,
  ScheduleInput,
  ScheduleSlot,
  ScheduleUpsert,
} from './schedules/index.js';
export { scheduleControl, scheduleNotFound } from './schedules/index.js';
export type {
  FindStaleReadyRequest,
  StaleReadyName,
  StaleReadyPage,
  StaleReadyReport,
} from './stale/find-stale-ready.js';
export {
  DEFAULT_STALE_READY_AFTER_MS,
  findStaleReady,
  STALE_READY_PAGE,
  staleReadyReport,
} from './stale/find-stale-ready.js';
export type {
  CreateStepApiInput,
  StepApi,
  StepContext,
  StepOutput,
  StepRunOptions,
  Suspension,
  WaitForEventOptions,
} from './steps/index.js';
export {
  createStepApi,
  DEFAULT_EVENT_POLL_MS,
  isRunSuspended,
  RunSuspended,
} from './steps/index.js';
export {
  MINUTE_MS,
  MinuteCounts,
  minuteStart,
  WINDOW_MINUTES,
  windowMinutes,
} from './throughput/minutes.js';
export type { ScannedThroughput, ScanThroughputRequest } from './throughput/scan-throughput.js';
export { scanThroughput } from './throughput/scan-throughput.js';
export type { SettledSeries } from './throughput/tally.js';
export { SettledTally } from './throughput/tally.js';
export type { ScheduleTimeout } from './timers.js';
export { sleepFor, timeoutsFor } from './timers.js';
export type {
  LogLevel,
  RuntimeLogger,
  StopOptions,
  SuspendReason,
  Worker,
  WorkerEventName,
  WorkerEvents,
  WorkerJobShape,
  WorkerJobsOf,
  WorkerOptions,
} from './worker/index.js';
export {
  createConsoleLogger,
  createWorker,
  DEFAULT_GRACE_MS,
  DEFAULT_KEY_BUSY_DELAY_MS,
  DEFAULT_POLL_INTERVAL_MS,
  DEFAULT_SETTLE_BATCH_MS,
  ON_SETTLED_ATTEMPTS,
  ON_SETTLED_BACKOFF_MS,
  PROGRESS_FLUSH_MS,
  PROGRESS_INTERVAL_MS,
  SLOT_FREED_TTL_MS,
  STOP_HANDBACK_MS,
  STOP_SLACK_MS,
} from './worker/index.js';
