import { createHash } from 'node:crypto';
import { jobInvalid } from '../../errors/refusals.js';

// A fixed namespace, so every process derives the same id for the same slot.
const NAMESPACE = Buffer.from('6f1d3c2a9b8e4f7d8a5c0e1b2d3f4a5b', 'hex');

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
  const hash = createHash('sha1').update(NAMESPACE).update(slotKey(schedule, slot)).digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
