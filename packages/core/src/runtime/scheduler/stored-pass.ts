import type { Driver } from '../../contract/driver.js';
import type { EnqueueResult, MarkedEnqueueRequest, MarkPassed } from '../../contract/records.js';
import { MAX_SCHEDULE_PAGE, type ScheduleRecord } from '../../contract/schedules.js';
import { type CronSlots, cronSlots } from '../../internal/cron.js';
import type { BackgroundLogger } from '../background-logger.js';
import { storedMarkName, storedSlotJobId, storedSlotKey } from '../schedules/schedule-names.js';
import { writeOf } from '../schedules/schedule-write.js';
import type { EnqueuedSlot } from './schedule-types.js';
import { slotInstant } from './slot-id.js';

/** Pages of due schedules one tick takes; the rest wait for the next tick. */
const MAX_PAGES_PER_TICK = 10;
/** A schedule that slept long keeps at most this many of its slots. */
const MAX_SLOTS = 1_000;

/** What the stored pass needs of the scheduler running it. */
export interface StoredPassContext {
  readonly driver: Driver;
  readonly logger: BackgroundLogger;
  /** Slots missed while no scheduler led that a new lead still runs (`catchUp.maxSlots`). */
  readonly maxSlots: number;
  /** Before each slot: false when the tick must stop (lead lost, stopping). */
  readonly holdLead: () => Promise<boolean>;
}

/**
 * The slots of `schedule` to enqueue at `now`, oldest first: of those from its `nextAt` up to
 * now, every one asked for by the write that stored it (a catch-up: at or before `updatedAt`)
 * and every one that came due while this scheduler led; of those missed while nobody led, the
 * latest `maxSlots`, as for a schedule in code.
 */
function slotsToRun(
  schedule: ScheduleRecord,
  slots: CronSlots,
  now: number,
  leadSince: number,
  maxSlots: number,
): number[] {
  const due = slots.between(schedule.nextAt - 1, now, MAX_SLOTS);
  const isMissed = (slot: number) => slot > schedule.updatedAt && slot < leadSince;
  // Missed slots are one run of `due`: those before its latest `maxSlots` are left out.
  const missed = due.filter(isMissed);
  const keepFrom =
    maxSlots === 0 ? Number.POSITIVE_INFINITY : (missed.at(-maxSlots) ?? Number.NEGATIVE_INFINITY);
  return due.filter((slot) => !isMissed(slot) || slot >= keepFrom);
}

function slotRequest(schedule: ScheduleRecord, slot: number): MarkedEnqueueRequest {
  const { name, tenantId } = schedule;
  return {
    id: storedSlotJobId(name, tenantId, slot),
    name: schedule.job,
    payload: schedule.payload,
    idempotencyKey: storedSlotKey(name, tenantId, slot),
    ...(schedule.queue === undefined ? {} : { queue: schedule.queue }),
    ...(schedule.priority === undefined ? {} : { priority: schedule.priority }),
    ...(schedule.maxAttempts === undefined ? {} : { maxAttempts: schedule.maxAttempts }),
    ...(tenantId === undefined ? {} : { tenantId }),
    advanceMark: { name: storedMarkName(name, tenantId), value: slot },
  };
}

/**
 * Enqueues the due slots of one stored schedule, each with its mark raised in the same atomic
 * change (as a schedule in code), then stores its next slot at the revision it read: a schedule
 * changed meanwhile keeps the change's own next slot. False when the tick must stop.
 */
async function runSchedule(
  context: StoredPassContext,
  schedule: ScheduleRecord,
  now: number,
  leadSince: number,
  out: EnqueuedSlot[],
): Promise<boolean> {
  const { driver, logger } = context;
  const slots = cronSlots(schedule.cron, schedule.timezone);
  const mark = await driver.marks.get(storedMarkName(schedule.name, schedule.tenantId));
  for (const slot of slotsToRun(schedule, slots, now, leadSince, context.maxSlots)) {
    if (mark !== undefined && slot <= mark) continue;
    if (!(await context.holdLead())) return false;
    const answer: EnqueueResult | MarkPassed = await driver.enqueue(slotRequest(schedule, slot));
    if ('markPassed' in answer) continue;
    out.push({
      schedule: schedule.name,
      ...(schedule.tenantId === undefined ? {} : { tenantId: schedule.tenantId }),
      slot,
      jobId: answer.id,
      deduped: answer.deduped,
    });
    if (!answer.deduped) {
      logger.info('schedule slot enqueued', {
        schedule: schedule.name,
        tenantId: schedule.tenantId,
        slot: slotInstant(slot),
        jobId: answer.id,
      });
    }
  }
  await driver.schedules.put({ ...writeOf(schedule), nextAt: slots.next(now) }, schedule.revision);
  return true;
}

/**
 * One tick's pass over the stored schedules: only those `due` (the driver's index on `nextAt`),
 * a page at a time, so a tick's cost follows the schedules due, not the schedules stored. A
 * schedule whose slot could not be enqueued keeps its `nextAt` and comes again next tick.
 */
export async function runStoredSchedules(
  context: StoredPassContext,
  now: number,
  leadSince: number,
  out: EnqueuedSlot[],
): Promise<boolean> {
  for (let page = 0; page < MAX_PAGES_PER_TICK; page += 1) {
    const due = await context.driver.schedules.due(now, MAX_SCHEDULE_PAGE);
    let failed = false;
    for (const schedule of due) {
      try {
        if (!(await runSchedule(context, schedule, now, leadSince, out))) return false;
      } catch (error) {
        failed = true;
        context.logger.error('stored schedule could not be run; the next tick tries again', {
          schedule: schedule.name,
          tenantId: schedule.tenantId,
          error,
        });
      }
    }
    // A schedule that failed kept its nextAt, so a next page would start with it again.
    if (failed || due.length < MAX_SCHEDULE_PAGE) return true;
  }
  return true;
}
