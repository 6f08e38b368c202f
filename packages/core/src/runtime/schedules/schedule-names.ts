import { nameUuid } from '../../internal/name-uuid.js';
import { slotInstant } from '../scheduler/slot-id.js';

/**
 * The names one stored schedule's slots go by. `(tenantId, name)` is hashed into one uuid, so a
 * tenant's schedule never meets another tenant's (nor a schedule of `createScheduler`, whose
 * names start `schedule:`), and any name fits the driver's limits.
 */
const scheduleUuid = (name: string, tenantId: string | undefined): string =>
  nameUuid(`stored-schedule:${JSON.stringify([tenantId ?? null, name])}`);

/** The schedule's mark in `driver.marks`: its latest enqueued slot. */
export const storedMarkName = (name: string, tenantId: string | undefined): string =>
  `stored-schedule:${scheduleUuid(name, tenantId)}`;

/** The idempotency key of one slot. */
export const storedSlotKey = (name: string, tenantId: string | undefined, slot: number): string =>
  `stored-schedule:${scheduleUuid(name, tenantId)}:${slotInstant(slot)}`;

/** The job id of one slot: a second enqueue of the slot, by any leader, meets it. */
export const storedSlotJobId = (name: string, tenantId: string | undefined, slot: number): string =>
  nameUuid(storedSlotKey(name, tenantId, slot));
