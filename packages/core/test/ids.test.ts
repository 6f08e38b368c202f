import { expect, it } from 'vitest';
import { timeOrderedUuid } from '../src/ids.js';
import { isUuid } from '../src/index.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** The instant a version 7 uuid holds, in ms. */
const instantOf = (id: string) => Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16);

it('a time-ordered uuid is an RFC 9562 version 7 uuid holding its instant, sorting after every id of an earlier instant', () => {
  const earlier = timeOrderedUuid(1_764_000_000_000);
  const later = timeOrderedUuid(1_764_000_000_001);
  for (const id of [earlier, later]) {
    expect(id).toMatch(V7);
    expect(isUuid(id)).toBe(true);
  }
  expect(instantOf(earlier)).toBe(1_764_000_000_000);
  expect(earlier < later).toBe(true);
  const sameInstant = new Set(Array.from({ length: 10_000 }, () => timeOrderedUuid(5)));
  expect(sameInstant.size).toBe(10_000);
});

it('an instant outside what 48 bits hold is clamped, never a malformed id', () => {
  expect(instantOf(timeOrderedUuid(-1))).toBe(0);
  expect(instantOf(timeOrderedUuid(2 ** 60))).toBe(2 ** 48 - 1);
  expect(timeOrderedUuid(Number.NaN)).toMatch(V7);
});
