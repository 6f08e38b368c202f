/**
 * `@berth/core/driver`: what a driver author needs — the backend interfaces and the screened
 * inputs core hands them, the records and states they store, the limits, the error factories a
 * backend throws, the shared helpers (attempt history, cursor codec, effective state, event
 * matching) and `createDriver`, with the base options every driver takes. An app imports
 * `@berth/core`, which leaves these out; a driver package imports this. See the README's
 * "Writing a driver".
 */

export {
  type AttemptEnding,
  appendAttempt,
  attemptEnding,
  attemptError,
  cutUtf8,
  NO_ATTEMPTS,
  nackOutcome,
} from './attempt-history.js';
export type { AttemptBackend } from './contract/attempts.js';
export type {
  BackfillBackend,
  BackfillCommit,
  BackfillListRequest,
  BackfillStart,
  BackfillTransition,
} from './contract/backfills.js';
export type {
  ClaimOutcome,
  DriverBackend,
  ListPosition,
  PositionedJob,
  ScreenedClaim,
  ScreenedList,
} from './contract/driver.js';
export type { EnqueueBackend, InsertOutcome, KeyedEnqueue } from './contract/enqueue.js';
export type { EventBackend } from './contract/events.js';
export type {
  LifecycleBackend,
  LifecycleEvent,
  LifecycleEventType,
  LifecyclePage,
  ScreenedLifecycleRead,
} from './contract/lifecycle.js';
export { LIFECYCLE_READ_SCAN } from './contract/lifecycle.js';
export type {
  LogBackend,
  ScreenedLogList,
} from './contract/logs.js';
export type { PauseBackend } from './contract/pause.js';
export type {
  ScreenedEnqueue,
  ScreenedPurge,
} from './contract/records.js';
export type {
  ScheduleBackend,
  ScheduleDueRequest,
  ScheduleListRequest,
  SchedulePosition,
  ScheduleRecord,
  ScheduleWrite,
} from './contract/schedules.js';
export { resolveBaseOptions } from './driver-options.js';
export {
  driverClosed,
  driverNotMigrated,
  driverUnavailable,
  enqueueIndexDisagrees,
  idTaken,
  jobDuplicate,
  jobNotCancellable,
  jobNotDeletable,
  jobNotFound,
  jobNotPromotable,
  jobNotRequeueable,
  leaseLost,
  sameTenant,
  stepInvalid,
} from './errors/refusals.js';
export { newEventRecord } from './event-record.js';
export { timeOrderedUuid } from './ids.js';
export type {
  AckItem,
  AckOptions,
  AttemptHistory,
  AttemptOutcome,
  AttemptRecord,
  BackfillChange,
  BackfillRun,
  BackfillStarted,
  BackfillStatus,
  BackfillTransaction,
  BaseDriverOptions,
  ByIdOptions,
  ClaimedJob,
  Clock,
  DeadOutboxRow,
  Driver,
  DriverHooks,
  EnqueueOptions,
  EnqueueResult,
  EventRecord,
  EventStore,
  Fence,
  FindEventOptions,
  JobContract,
  JobError,
  JobLogLevel,
  JobRecord,
  JobState,
  Json,
  LeaseHolder,
  LeaseStore,
  LogAppend,
  LogLine,
  LogLineInput,
  MarkAdvance,
  MarkPassed,
  MarkStore,
  NackItem,
  NackOptions,
  OutboxAdmin,
  OutboxBatch,
  OutboxStore,
  PublishOptions,
  PurgeRequest,
  QueuePause,
  QueueStats,
  RequeueOptions,
  StagedRow,
  StateCounts,
  StepRecord,
  StepStatus,
  StepStore,
  SuspendOptions,
  Unsubscribe,
} from './index.js';
export {
  ACTIVE_BACKFILL_STATUSES,
  BACKFILL_RUNS_KEPT,
  BACKFILL_STATUSES,
  BerthError,
  configInvalid,
  createDriver,
  DEFAULT_EVENT_TTL_MS,
  DEFAULT_PURGE_LIMIT,
  effectiveState,
  isBerthError,
  isJobState,
  JOB_STATES,
  LIVE_STATES,
  MAX_ATTEMPT_MESSAGE_BYTES,
  MAX_ATTEMPT_RECORDS,
  MAX_ATTEMPT_STACK_BYTES,
  MAX_JOB_LOG_LINES,
  REQUEUEABLE_STATES,
  stagedJobRequest,
  TERMINAL_STATES,
  UNDELETABLE_STATES,
} from './index.js';
export { callListener, callListenerLater } from './listener-calls.js';
export { matchesEvent } from './match-event.js';
export type { Mutable } from './mutable.js';
export {
  type CursorCodec,
  type CursorDirection,
  type CursorFilters,
  createCursorCodec,
  defaultCursorSecret,
} from './screen/cursor.js';
export {
  filtersLifecycleRead,
  lifecyclePositionInvalid,
  matchesLifecycleRead,
} from './screen/lifecycle.js';
