import type { EventRecord, Json } from '@berth/core/driver';
import { type BlobStore, readBlob, SPILL_AT, writeBlob } from './blobs.js';
import { type BlobRef, encodeJson } from './record.js';

/** An event as its key in the jobs bucket holds it: a large payload sits in parts. */
export interface StoredEvent {
  readonly id: string;
  readonly name: string;
  readonly payload?: Json;
  readonly publishedAt: number;
  readonly expiresAt: number;
  readonly spill?: BlobRef;
}

export async function storedEventOf(store: BlobStore, event: EventRecord): Promise<StoredEvent> {
  const bytes = encodeJson(event.payload);
  if (bytes.length <= SPILL_AT) return event;
  const { payload: _payload, ...rest } = event;
  return { ...rest, spill: await writeBlob(store, event.id, 'payload', bytes) };
}

/** The record answers carry: a fresh copy, its payload read back in when it was spilled. */
export async function eventOf(store: BlobStore, stored: StoredEvent): Promise<EventRecord> {
  const payload =
    stored.spill === undefined
      ? structuredClone(stored.payload ?? null)
      : await readBlob(store, stored.id, 'payload', stored.spill);
  return {
    id: stored.id,
    name: stored.name,
    payload,
    publishedAt: stored.publishedAt,
    expiresAt: stored.expiresAt,
  };
}
