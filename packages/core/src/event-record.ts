import type { EventRecord } from './contract/events.js';
import type { Json } from './contract/records.js';
import { timeOrderedUuid } from './ids.js';

/** The record a backend's `publish` stores: a fresh id, published `now`, expiring `ttlMs` later. */
export const newEventRecord = (
  name: string,
  payload: Json,
  now: number,
  ttlMs: number,
): EventRecord => ({
  id: timeOrderedUuid(now),
  name,
  payload,
  publishedAt: now,
  expiresAt: now + ttlMs,
});
