import type { ScheduleRecord, ScheduleWrite } from '../../contract/schedules.js';

/** What `put` would store to write `record` again: all but the fields the driver keeps. */
export function writeOf(record: ScheduleRecord): ScheduleWrite {
  const { revision: _revision, createdAt: _created, updatedAt: _updated, ...write } = record;
  return write;
}
