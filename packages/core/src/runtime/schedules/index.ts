export { scheduleControl, scheduleNotFound } from './schedule-control.js';
export type { ScheduleControl, ScheduleInput, ScheduleUpsert } from './schedule-types.js';
