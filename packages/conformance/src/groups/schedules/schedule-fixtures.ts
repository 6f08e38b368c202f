import type { Driver, Json, ScheduleRecord } from '@berth/core';
import type { ScheduleWrite } from '@berth/core/driver';

/** What a kit case stores: a schedule of `name`, every field a plain default unless given. */
export interface KitSchedule {
  readonly name: string;
  readonly tenantId?: string;
  readonly cron?: string;
  readonly timezone?: string;
  readonly job?: string;
  readonly queue?: string;
  readonly payload?: Json;
  readonly priority?: number;
  readonly maxAttempts?: number;
  readonly paused?: boolean;
  readonly nextAt: number;
}

/** The write `put` is given for a kit schedule. */
export const scheduleWrite = (schedule: KitSchedule): ScheduleWrite => ({
  cron: '0 3 * * *',
  job: 'report',
  payload: null,
  paused: false,
  ...schedule,
});

/** Stores a new schedule (revision 0) and answers it; the case fails when the put is refused. */
export async function createSchedule(
  driver: Driver,
  schedule: KitSchedule,
): Promise<ScheduleRecord> {
  const stored = await driver.schedules.put(scheduleWrite(schedule), 0);
  if (stored === undefined) throw new Error(`expected ${schedule.name} to be created`);
  return stored;
}

/** The `(tenantId, name)` of each record, in the order answered. */
export const positions = (records: readonly ScheduleRecord[]): string[] =>
  records.map((record) => `${record.tenantId ?? '-'}/${record.name}`);
