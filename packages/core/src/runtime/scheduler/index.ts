export { createScheduler } from './create-scheduler.js';
export type {
  EnqueuedSlot,
  ScheduleDefinition,
  ScheduledJob,
  SchedulePayload,
  Scheduler,
  SchedulerOptions,
  SchedulerTick,
} from './schedule-types.js';
export { slotJobId, slotKey, slotMarkName } from './slot-id.js';
