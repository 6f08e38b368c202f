import { expect } from 'vitest';
import { expectRefusal } from '../../assert.js';
import type { KitCase, KitGroup } from '../../kit.js';
import { marksEnqueueCases } from './marks-enqueue.js';
import { marksHeldBackCases } from './marks-held-back.js';

const marksCases: readonly KitCase[] = [
  {
    title: 'get of a mark never advanced answers undefined',
    run: async ({ driver }) => {
      expect(await driver.marks.get('schedule:nightly')).toBeUndefined();
    },
  },
  {
    title:
      'advance raises an unset or lower mark and answers true; an equal or lower value answers false and changes nothing',
    run: async ({ driver, t0 }) => {
      const { marks } = driver;
      expect(await marks.advance('m', t0)).toBe(true);
      expect(await marks.get('m')).toBe(t0);
      expect(await marks.advance('m', t0 + 60_000)).toBe(true);
      expect(await marks.get('m')).toBe(t0 + 60_000);
      expect(await marks.advance('m', t0 + 60_000)).toBe(false);
      expect(await marks.advance('m', t0)).toBe(false);
      expect(await marks.get('m')).toBe(t0 + 60_000);
    },
  },
  {
    title: 'advance takes 0 and Number.MAX_SAFE_INTEGER exactly',
    run: async ({ driver }) => {
      const { marks } = driver;
      expect(await marks.advance('low', 0)).toBe(true);
      expect(await marks.get('low')).toBe(0);
      expect(await marks.advance('low', 0)).toBe(false);
      expect(await marks.advance('high', Number.MAX_SAFE_INTEGER - 1)).toBe(true);
      expect(await marks.advance('high', Number.MAX_SAFE_INTEGER)).toBe(true);
      expect(await marks.get('high')).toBe(Number.MAX_SAFE_INTEGER);
      expect(await marks.advance('high', Number.MAX_SAFE_INTEGER - 1)).toBe(false);
    },
  },
  {
    title: 'marks of different names are independent',
    run: async ({ driver }) => {
      const { marks } = driver;
      expect(await marks.advance('a', 10)).toBe(true);
      expect(await marks.advance('b', 5)).toBe(true);
      expect(await marks.advance('b', 7)).toBe(true);
      expect(await marks.get('a')).toBe(10);
      expect(await marks.get('b')).toBe(7);
      expect(await marks.get('c')).toBeUndefined();
    },
  },
  {
    title:
      'of racing advances the highest value wins, and each answers truthfully: of two racing advances to one value at most one answers true',
    timeoutMs: 30_000,
    run: async ({ driver }) => {
      const values = Array.from({ length: 20 }, (_, n) => ((n * 7) % 20) + 1);
      const racers = [...values, ...values];
      const answers = await Promise.all(racers.map((value) => driver.marks.advance('race', value)));
      expect(await driver.marks.get('race')).toBe(20);
      const moved = racers.filter((_, index) => answers[index]);
      // The highest value moved the mark exactly once; no value moved it twice.
      expect(moved.filter((value) => value === 20)).toHaveLength(1);
      expect(new Set(moved).size).toBe(moved.length);
      expect(await driver.marks.advance('race', 20)).toBe(false);
    },
  },
  {
    title: 'marks refuse an empty name or a value that is not a safe integer >= 0 with JOB_INVALID',
    run: async ({ driver }) => {
      const { marks } = driver;
      await expectRefusal(marks.get(''), 'JOB_INVALID', { field: 'mark name' });
      await expectRefusal(marks.advance('', 1), 'JOB_INVALID', { field: 'mark name' });
      for (const value of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
        await expectRefusal(marks.advance('m', value), 'JOB_INVALID', { field: 'value' });
      }
      expect(await marks.get('m')).toBeUndefined();
    },
  },
];

export const marksGroup: KitGroup = {
  name: 'marks',
  cases: [...marksCases, ...marksEnqueueCases, ...marksHeldBackCases],
};
