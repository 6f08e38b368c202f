export { scheduleControl, scheduleNotFound } from './schedule-control.js';
export type {
  ScheduleControl,
  ScheduleInput,
  ScheduleSlot,
  ScheduleUpsert,
} from './schedule-types.js';
