import { type Driver, isJobState, type ScheduleDefinition, slotJobId } from '@berth/core';
import { CronExpressionParser } from 'cron-parser';
import type { SchedulesResponse, ScheduleView } from '../api-types.js';
import type { RequestContext } from '../http/context.js';
import { NEXT_SLOTS, slotsAfter } from './cron-slots.js';
import { storedSchedules } from './stored-schedules.js';

export { NEXT_SLOTS } from './cron-slots.js';

async function viewOf(
  driver: Driver,
  schedule: ScheduleDefinition,
  now: number,
  tenantId: string | undefined,
): Promise<ScheduleView> {
  const job = typeof schedule.job === 'string' ? { name: schedule.job } : schedule.job;
  const timezone = schedule.timezone ?? 'UTC';
  const base = {
    name: schedule.name,
    cron: schedule.cron,
    timezone,
    job: job.name,
    queue: schedule.queue ?? ('queue' in job ? (job.queue ?? null) : null),
  };
  try {
    const next = slotsAfter(schedule.cron, timezone, now, NEXT_SLOTS);
    // prev() answers slots strictly before its start; one ms past now includes now.
    const behind = CronExpressionParser.parse(schedule.cron, {
      currentDate: now + 1,
      tz: timezone,
    });
    const slot = behind.hasPrev() ? behind.prev().getTime() : undefined;
    if (slot === undefined) return { ...base, next, last: null };
    // Every slot's job has a deterministic id: the slot's job is found without a search.
    const jobId = slotJobId(schedule.name, slot);
    const stored = await driver.get(jobId, tenantId === undefined ? {} : { tenantId });
    const state = stored !== undefined && isJobState(stored.state) ? stored.state : null;
    return { ...base, next, last: { slot, jobId, state } };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ...base, next: [], last: null, error: message };
  }
}

/**
 * The app's schedules with their next slots and last slot's job, the scheduler's leader, and a
 * page of the schedules the driver stores.
 */
export async function schedules(context: RequestContext): Promise<SchedulesResponse> {
  const { driver, schedules: list, schedulerLease } = context.options;
  const now = driver.clock.now();
  // A tenant sees only its own schedules.
  const visible = (list ?? []).filter(
    (schedule) => context.tenantId === undefined || schedule.tenantId === context.tenantId,
  );
  const [leader, views, stored] = await Promise.all([
    driver.leases.holder(schedulerLease),
    Promise.all(visible.map((schedule) => viewOf(driver, schedule, now, context.tenantId))),
    storedSchedules(context),
  ]);
  return {
    configured: list !== undefined,
    leaseName: schedulerLease,
    leader: leader ?? null,
    schedules: views,
    stored,
  };
}
