import type { Driver } from '../../contract/driver.js';
import type { EnqueueRequest, EnqueueResult } from '../../contract/records.js';
import type { BackgroundLogger } from '../background-logger.js';
import type { CronSlots } from './cron-slots.js';
import { slotInstant, slotJobId } from './slot-id.js';

export interface PreparedSchedule {
  readonly name: string;
  /** The done mark (`slotMarkName`): the latest slot whose enqueue landed. */
  readonly doneMark: string;
  /** The claim mark (`slotClaimMarkName`): the latest slot a leader claimed to enqueue. */
  readonly claimMark: string;
  readonly slots: CronSlots;
  readonly tenantId: string | undefined;
  readonly request: (slot: number) => EnqueueRequest;
}

/** A schedule's two marks, as read at the start of a tick. */
export interface ScheduleMarks {
  readonly claimed: number | undefined;
  readonly done: number | undefined;
}

export async function readMarks(
  driver: Driver,
  schedule: PreparedSchedule,
): Promise<ScheduleMarks> {
  const [claimed, done] = await Promise.all([
    driver.marks.get(schedule.claimMark),
    driver.marks.get(schedule.doneMark),
  ]);
  return { claimed, done };
}

/** The latest slot no tick may enqueue again: every slot at or below it was claimed. */
export const highWater = ({ claimed, done }: ScheduleMarks): number =>
  Math.max(claimed ?? Number.NEGATIVE_INFINITY, done ?? Number.NEGATIVE_INFINITY);

/** The claimed slot no enqueue was confirmed for, if any: its claimant died or failed. */
export const unconfirmed = ({ claimed, done }: ScheduleMarks): number | undefined =>
  claimed !== undefined && (done === undefined || claimed > done) ? claimed : undefined;

/**
 * Claims `slot` for this leader: raises the claim mark to it, which only one of racing leaders
 * does. False when another leader already claimed it or a later slot.
 */
export const claimSlot = (driver: Driver, schedule: PreparedSchedule, slot: number) =>
  driver.marks.advance(schedule.claimMark, slot);

/**
 * Enqueues a slot this leader claimed, then raises the done mark. The job has landed once the
 * enqueue answers: a failed done mark only leaves the slot for `confirmSlot` at the next tick.
 */
export async function enqueueClaimed(
  driver: Driver,
  schedule: PreparedSchedule,
  slot: number,
  logger: BackgroundLogger,
): Promise<EnqueueResult> {
  const answer = await driver.enqueue(schedule.request(slot));
  await driver.marks.advance(schedule.doneMark, slot).catch((error: unknown) => {
    logger.warn('schedule done mark could not be raised; the next tick raises it', {
      schedule: schedule.name,
      slot: slotInstant(slot),
      error,
    });
  });
  return answer;
}

/**
 * Settles a slot another leader claimed but never confirmed (it died, stalled or failed between
 * its claim and its done mark). Its job, when it exists, shows the enqueue landed. When it does
 * not, the enqueue never landed or the job ran and retention purged it: the two cannot be told
 * apart, and enqueuing again could run the slot twice, so the slot is left and said so loudly.
 */
export async function confirmSlot(
  driver: Driver,
  schedule: PreparedSchedule,
  slot: number,
  logger: BackgroundLogger,
): Promise<void> {
  const id = slotJobId(schedule.name, slot);
  const job = await driver.get(
    id,
    schedule.tenantId === undefined ? undefined : { tenantId: schedule.tenantId },
  );
  if (job === undefined) {
    logger.warn(
      'schedule slot may not have been enqueued: its leader stopped between claiming and confirming it, and its job is gone (never enqueued, or run and purged); it is not enqueued again, so it never runs twice',
      { schedule: schedule.name, slot: slotInstant(slot), jobId: id },
    );
  }
  await driver.marks.advance(schedule.doneMark, slot);
}
