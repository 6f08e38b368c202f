export * from './backfills/index.js';
export type {
  Clock,
  ManualClock,
} from './clock.js';
export {
  createManualClock,
  systemClock,
} from './clock.js';
export type {
  AttemptHistory,
  AttemptOutcome,
  AttemptRecord,
  AttemptStore,
} from './contract/attempts.js';
export {
  ATTEMPT_OUTCOMES,
  MAX_ATTEMPT_MESSAGE_BYTES,
  MAX_ATTEMPT_RECORDS,
  MAX_ATTEMPT_STACK_BYTES,
} from './contract/attempts.js';
export type {
  BackfillByIdOptions,
  BackfillChange,
  BackfillCommitRequest,
  BackfillLedger,
  BackfillListOptions,
  BackfillRun,
  BackfillStarted,
  BackfillStartRequest,
  BackfillStatus,
  BackfillTransitionRequest,
} from './contract/backfills.js';
export {
  ACTIVE_BACKFILL_STATUSES,
  BACKFILL_RUNS_KEPT,
  BACKFILL_STATUSES,
  MAX_BACKFILL_CURSOR_BYTES,
  MAX_BACKFILL_ERROR_LENGTH,
  MAX_BACKFILL_LIST_LIMIT,
} from './contract/backfills.js';
export type { DeleteJobs } from './contract/delete.js';
export { UNDELETABLE_STATES } from './contract/delete.js';
export type {
  Driver,
  DriverHooks,
  Unsubscribe,
} from './contract/driver.js';
export type {
  EventRecord,
  EventStore,
  FindEventOptions,
  PublishOptions,
  PurgeExpiredOptions,
} from './contract/events.js';
export type {
  LeaseHolder,
  LeaseStore,
} from './contract/leases.js';
export type {
  LifecycleEvent,
  LifecycleEventType,
  LifecyclePage,
  LifecycleReadRequest,
  LifecycleStore,
} from './contract/lifecycle.js';
export {
  DEFAULT_LIFECYCLE_PAGE,
  DEFAULT_LIFECYCLE_RETENTION,
  LIFECYCLE_EVENT_TYPES,
  LIFECYCLE_READ_SCAN,
  MAX_LIFECYCLE_PAGE,
  MAX_LIFECYCLE_RETENTION,
  MIN_LIFECYCLE_RETENTION,
} from './contract/lifecycle.js';
export {
  DEFAULT_EVENT_TTL_MS,
  DEFAULT_JOB_PAGE,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_MAX_PAYLOAD_BYTES,
  DEFAULT_PURGE_LIMIT,
  DEFAULT_QUEUE,
  MAX_CLAIM_BATCH,
  MAX_ENQUEUE_BATCH,
  MAX_ERROR_MESSAGE_LENGTH,
  MAX_ERROR_STACK_LENGTH,
  MAX_JOB_PAGE,
  MAX_NAME_LENGTH,
  MAX_PAYLOAD_DEPTH,
  MAX_PROGRESS_BYTES,
  MAX_PURGE_LIMIT,
} from './contract/limits.js';
export type {
  JobLogLevel,
  LogAppend,
  LogLine,
  LogLineInput,
  LogListOptions,
  LogPage,
  LogStore,
} from './contract/logs.js';
export {
  DEFAULT_LOG_PAGE,
  JOB_LOG_LEVELS,
  MAX_JOB_LOG_LINES,
  MAX_LOG_APPEND,
  MAX_LOG_LINE_BYTES,
  MAX_LOG_PAGE,
} from './contract/logs.js';
export type { MarkStore } from './contract/marks.js';
export type {
  PauseOptions,
  PauseStore,
  QueuePause,
} from './contract/pause.js';
export type {
  AckItem,
  AckOptions,
  ByIdOptions,
  ClaimedJob,
  ClaimRequest,
  EnqueueRequest,
  EnqueueResult,
  Fence,
  JobError,
  JobRecord,
  Json,
  ListPage,
  ListRequest,
  MarkAdvance,
  MarkedEnqueueRequest,
  MarkPassed,
  NackItem,
  NackOptions,
  PurgeRequest,
  QueueStats,
  RequeueOptions,
  StateCounts,
  SuspendOptions,
} from './contract/records.js';
export type {
  ScheduleByNameOptions,
  ScheduleListOptions,
  SchedulePage,
  ScheduleRecord,
  ScheduleStore,
} from './contract/schedules.js';
export { MAX_CRON_LENGTH, MAX_SCHEDULE_PAGE } from './contract/schedules.js';
export type { JobState } from './contract/states.js';
export {
  effectiveState,
  isJobState,
  JOB_STATES,
  LIVE_STATES,
  REQUEUEABLE_STATES,
  TERMINAL_STATES,
} from './contract/states.js';
export type {
  StepRecord,
  StepStatus,
  StepStore,
} from './contract/steps.js';
export { createDriver } from './create-driver.js';
export type { BaseDriverOptions } from './driver-options.js';
export { parseDuration } from './duration.js';
export type {
  BerthErrorCauseJSON,
  BerthErrorInput,
  BerthErrorJSON,
} from './errors/berth-error.js';
export {
  BerthError,
  isBerthError,
} from './errors/berth-error.js';
export type { CoreErrorCode } from './errors/codes.js';
export { CORE_ERROR_CODES } from './errors/codes.js';
export type {
  BerthErrorCode,
  BerthErrorMetas,
  MetaJson,
} from './errors/metas.js';
export type { ConfigInvalidInput } from './errors/refusals.js';
export {
  configInvalid,
  jobInvalid,
  jobPageInvalid,
} from './errors/refusals.js';
export type { ErrorCodeEntry } from './errors/registry.js';
export {
  errorCodeEntry,
  registerErrorCode,
  registeredErrorCodes,
} from './errors/registry.js';
export type {
  IsJson,
  JsonRoot,
  JsonShaped,
  RequireJson,
} from './json-shape.js';
export * from './metrics/index.js';
export * from './outbox/index.js';
export * from './runtime/index.js';
export { MIN_CURSOR_SECRET_LENGTH } from './screen/cursor.js';
export {
  screenEnqueue,
  screenEnqueueMany,
} from './screen/enqueue.js';
export { isUuid } from './screen/values.js';
export * from './webhooks/index.js';
