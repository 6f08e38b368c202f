import type { Json } from './contract/records.js';

const deepEqual = (a: Json | undefined, b: Json | undefined): boolean => {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, index) => deepEqual(item, b[index]));
  }
  const left = a as Record<string, Json>;
  const right = b as Record<string, Json>;
  const keys = Object.keys(left);
  return (
    keys.length === Object.keys(right).length &&
    keys.every((key) => key in right && deepEqual(left[key], right[key]))
  );
};

/**
 * Whether an event payload satisfies a `find` match: the payload is an object holding each
 * top-level key of `match` with a deep-equal value. Shared so every driver matches alike; a
 * driver that filters in its backend must give the same answers.
 */
export function matchesEvent(
  payload: Json,
  match: Readonly<Record<string, Json>> | undefined,
): boolean {
  if (match === undefined) return true;
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return false;
  const fields = payload as Readonly<Record<string, Json>>;
  return Object.entries(match).every(
    ([key, value]) => key in fields && deepEqual(fields[key], value),
  );
}
