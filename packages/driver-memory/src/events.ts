import { randomUUID } from 'node:crypto';
import {
  DEFAULT_EVENT_TTL_MS,
  type EventRecord,
  type FindEventOptions,
  type Json,
  matchesEvent,
  type PublishOptions,
} from '@berth/core';
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
export function publish(
  store: Store,
  name: string,
  payload: Json,
  options: PublishOptions,
): EventRecord {
  const now = store.clock.now();
  const record: EventRecord = {
    id: randomUUID(),
    name,
    payload: copyJson(payload),
    publishedAt: now,
    expiresAt: now + (options.ttl ?? DEFAULT_EVENT_TTL_MS),
  };
  store.events.push({ record, seq: store.nextSeq() });
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

/** The earliest unexpired match by (publishedAt, seq). */
export function findEvent(
  store: Store,
  name: string,
  options: FindEventOptions,
): EventRecord | undefined {
  const now = store.clock.now();
  let found: { record: EventRecord; seq: number } | undefined;
  for (const event of store.events) {
    const { record } = event;
    if (record.name !== name || record.expiresAt <= now || record.publishedAt < options.after) {
      continue;
    }
    if (!matchesEvent(record.payload, options.match)) continue;
    if (options.exclude?.includes(record.id) === true) continue;
    if (
      found === undefined ||
      record.publishedAt < found.record.publishedAt ||
      (record.publishedAt === found.record.publishedAt && event.seq < found.seq)
    ) {
      found = event;
    }
  }
  return found === undefined ? undefined : copyEvent(found.record);
}

/** Unexpired events (all, or of `name`), in publish order. */
export function listEvents(store: Store, name: string | undefined): readonly EventRecord[] {
  const now = store.clock.now();
  return store.events
    .filter(({ record }) => record.expiresAt > now && (name === undefined || record.name === name))
    .sort((a, b) => a.seq - b.seq)
    .map(({ record }) => copyEvent(record));
}

export function purgeExpired(store: Store): number {
  const now = store.clock.now();
  const kept = store.events.filter(({ record }) => record.expiresAt > now);
  const removed = store.events.length - kept.length;
  store.events.splice(0, store.events.length, ...kept);
  return removed;
}
