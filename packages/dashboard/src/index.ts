export type {
  BulkAction,
  BulkActionResponse,
  BulkActionResult,
  ConcurrencyKeyRow,
  ConcurrencyOverview,
  DeadLetterGroup,
  DeadLettersResponse,
  DeadOutboxView,
  EventsResponse,
  FindResponse,
  GroupActionResponse,
  GroupActionResult,
  JobLogsResponse,
  JobResponse,
  JobSummary,
  JobsResponse,
  JobView,
  OutboxActionResponse,
  OutboxResponse,
  OverviewResponse,
  PageConfig,
  QueueOverview,
  SchedulesResponse,
  ScheduleView,
  StaleName,
  StepView,
  StoredScheduleResponse,
  StoredSchedulesPage,
  StoredScheduleView,
} from './api-types.js';
export type {
  BackfillActions,
  BackfillResponse,
  BackfillRunView,
  BackfillStatusView,
  BackfillsResponse,
} from './backfill-types.js';
export type { DashboardHandler, NextHandler } from './create-dashboard.js';
export { createDashboard } from './create-dashboard.js';
export type {
  EnqueueResponse,
  PayloadMatch,
  PayloadSearchResponse,
} from './enqueue-search-types.js';
export type {
  LifecycleEndResponse,
  LifecycleEventType,
  LifecycleEventView,
  LifecycleResponse,
} from './lifecycle-types.js';
export type {
  DashboardAuth,
  DashboardOptions,
  DashboardSchedules,
  DashboardTenant,
} from './options.js';
export type { BasicAuthOptions } from './security/basic-auth.js';
export { basicAuth } from './security/basic-auth.js';
export { isLoopbackHost } from './security/loopback.js';
export type { ServeDashboardOptions, ServedDashboard } from './serve.js';
export { serveDashboard } from './serve.js';
