import { jobInvalid } from '../../errors/refusals.js';
import { nameUuid } from '../../internal/name-uuid.js';

/** The latest instant a Date holds, ms. */
const MAX_INSTANT = 8.64e15;

/** A schedule's name as these helpers take it: a string (JOB_INVALID `schedule` otherwise). */
function scheduleName(schedule: unknown): string {
  if (typeof schedule !== 'string') throw jobInvalid('schedule', 'must be a schedule’s name');
  return schedule;
}

/** The instant of a slot as its key and id show it: an ISO string in UTC. */
export function slotInstant(slot: number): string {
  if (typeof slot !== 'number' || !Number.isFinite(slot) || Math.abs(slot) > MAX_INSTANT) {
    throw jobInvalid('slot', 'must be an instant in epoch ms');
  }
  return new Date(slot).toISOString();
}

/**
 * The name of a schedule's mark in `driver.marks`: its latest enqueued slot, raised by that
 * slot's enqueue in the same atomic change (`advanceMark`).
 */
export const slotMarkName = (schedule: string): string => `schedule:${scheduleName(schedule)}`;

/** The idempotency key of one slot of a schedule. */
export const slotKey = (schedule: string, slot: number): string =>
  `schedule:${scheduleName(schedule)}:${slotInstant(slot)}`;

/**
 * The job id of one slot of a schedule: a name-based (RFC 9562 version 5) uuid of the slot key.
 * A second enqueue of the slot, by any leader at any time, meets this id and answers the job
 * it made (`deduped`), whatever state that job is in, for as long as the row exists.
 */
export function slotJobId(schedule: string, slot: number): string {
  return nameUuid(slotKey(schedule, slot));
}
