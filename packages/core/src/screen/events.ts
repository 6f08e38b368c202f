import type { Json } from '../contract/records.js';
import { jobInvalid } from '../errors/refusals.js';
import { screenJson, screenUuid } from './values.js';

/** The most event ids a find or suspend may exclude. */
export const MAX_EVENT_EXCLUDE = 1_000;

/** A payload match (`find`'s `match`, `suspend`'s `eventsMatch`): an object of JSON fields. */
export function screenEventMatch(
  field: string,
  value: unknown,
): Readonly<Record<string, Json>> | undefined {
  if (value === undefined) return undefined;
  const match = screenJson(field, value, 65_536).value;
  if (match === null || typeof match !== 'object' || Array.isArray(match)) {
    throw jobInvalid(field, 'must be an object of payload fields');
  }
  return match as Readonly<Record<string, Json>>;
}

/** Event ids to skip: distinct uuids, at most MAX_EVENT_EXCLUDE. */
export function screenEventIds(field: string, value: unknown): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length > MAX_EVENT_EXCLUDE) {
    throw jobInvalid(field, `must be an array of at most ${MAX_EVENT_EXCLUDE} event ids`);
  }
  return [...new Set(value.map((id) => screenUuid(field, id)))];
}
