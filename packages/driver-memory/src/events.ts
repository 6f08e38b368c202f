import {
  DEFAULT_PURGE_LIMIT,
  type EventRecord,
  type FindEventOptions,
  type Json,
  matchesEvent,
  newEventRecord,
} from '@berth/core/driver';
import { copyJson } from './record.js';
import { type Store, setState } from './store.js';
import { notify } from './wake.js';

const copyEvent = (event: EventRecord): EventRecord => ({
  ...event,
  payload: copyJson(event.payload),
});

/**
 * Stores the event and, in the same change, makes every suspended waiter of `name` due now: it
 * stays `suspended` (so the claim resumes it) but reads `ready`.
 */
export function publish(store: Store, name: string, payload: Json, ttlMs: number): EventRecord {
  const record = newEventRecord(name, copyJson(payload), store.clock.now(), ttlMs);
  const now = record.publishedAt;
  store.events.add({ record, seq: store.nextSeq() });
  const woke = new Set<string>();
  // Re-placing a waiter keeps it in this set (same state, same event), so the walk is safe.
  for (const row of store.waiters.get(name) ?? []) {
    store.meter.visits += 1;
    row.runAt = now;
    row.updatedAt = now;
    setState(store, row, 'suspended');
    woke.add(row.queue);
  }
  notify(store, woke);
  return copyEvent(record);
}

/** The first unexpired match in publish order: `publishedAt` only filters, never orders. */
export function findEvent(
  store: Store,
  name: string,
  options: FindEventOptions,
): EventRecord | undefined {
  const now = store.clock.now();
  for (const { record } of store.events.inOrder(name)) {
    if (record.expiresAt <= now || record.publishedAt < options.after) continue;
    if (options.exclude?.includes(record.id) === true) continue;
    if (matchesEvent(record.payload, options.match)) return copyEvent(record);
  }
  return undefined;
}

/** Unexpired events (all, or of `name`), in publish order. */
export function listEvents(store: Store, name: string | undefined): readonly EventRecord[] {
  const now = store.clock.now();
  const live: EventRecord[] = [];
  for (const { record } of store.events.inOrder(name)) {
    if (record.expiresAt > now) live.push(copyEvent(record));
  }
  return live;
}

/** At most `limit` expired events go, soonest expiry first. */
export function purgeExpired(store: Store, options: { readonly limit?: number }): number {
  return store.events.purgeExpired(store.clock.now(), options.limit ?? DEFAULT_PURGE_LIMIT);
}
