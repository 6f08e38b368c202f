import { describe, expect, it } from 'vitest';
import { distinguishingTails, MIN_TAIL, shownTail } from '../ui/src/id-tail.js';

describe('the id column’s distinguishing tails', () => {
  it('shows the shortest end that tells every id on the page apart, at least MIN_TAIL long', () => {
    const ids = [
      '0190a0b0-1c2d-7000-8000-0000a1abcdef',
      '0190a0b0-1c2d-7000-8000-0000a2abcdef',
      '0190a0b0-1c2d-7000-8000-000000000001',
    ];
    // Their first 8 characters, what the column showed, are all the same.
    expect(new Set(ids.map((id) => id.slice(0, 8))).size).toBe(1);
    const tails = distinguishingTails(ids);
    // Two share their last six: one more character tells them apart, on every row alike.
    expect([...tails.values()]).toEqual(['1abcdef', '2abcdef', '0000001']);
    expect(new Set(tails.values()).size).toBe(ids.length);
    expect(Math.min(...[...tails.values()].map((tail) => tail.length))).toBeGreaterThanOrEqual(
      MIN_TAIL,
    );
  });

  it('keeps MIN_TAIL when that is already unique, the whole id when it must, and marks a cut', () => {
    const random = ['5d1c2f0a-0000-4000-8000-aaaaaa000001', '9e3b7c11-0000-4000-8000-bbbbbb000002'];
    expect([...distinguishingTails(random).values()]).toEqual(['000001', '000002']);
    expect([...distinguishingTails(['abc']).values()]).toEqual(['abc']);
    expect([...distinguishingTails(['xabc', 'yabc']).values()]).toEqual(['xabc', 'yabc']);
    expect(distinguishingTails([]).size).toBe(0);
    expect(shownTail('5d1c2f0a-0000-4000-8000-aaaaaa000001', '000001')).toBe('…000001');
    expect(shownTail('abc', 'abc')).toBe('abc');
  });
});
