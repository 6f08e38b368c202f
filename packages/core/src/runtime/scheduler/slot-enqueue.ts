import type { Driver } from '../../contract/driver.js';
import type { EnqueueResult, MarkedEnqueueRequest, MarkPassed } from '../../contract/records.js';
import type { CronSlots } from './cron-slots.js';

export interface PreparedSchedule {
  readonly name: string;
  /** The schedule's mark (`slotMarkName`): the latest slot whose job landed. */
  readonly mark: string;
  readonly slots: CronSlots;
  /** A slot's enqueue: its deterministic id and key, and `advanceMark` to the slot. */
  readonly request: (slot: number) => MarkedEnqueueRequest;
}

/** The latest slot whose job landed, or -Infinity: no tick enqueues a slot at or below it. */
export async function readMark(driver: Driver, schedule: PreparedSchedule): Promise<number> {
  return (await driver.marks.get(schedule.mark)) ?? Number.NEGATIVE_INFINITY;
}

/**
 * Enqueues one slot and raises the schedule's mark to it in ONE atomic driver change
 * (`advanceMark`): a crash leaves both or neither, so a slot whose mark is behind was never
 * enqueued and any leader may enqueue it, and a slot at or below the mark is never enqueued
 * again, even once retention purged its job. `MarkPassed` when another leader (or an earlier
 * try of this one whose answer was lost) enqueued it first.
 */
export const enqueueSlot = (
  driver: Driver,
  schedule: PreparedSchedule,
  slot: number,
): Promise<EnqueueResult | MarkPassed> => driver.enqueue(schedule.request(slot));
