import { expect, it } from 'vitest';
import { parseDuration } from '../src/index.js';

it('10s, 5m, 7d and compound spans parse to milliseconds; anything else is refused', () => {
  expect(parseDuration('10s')).toBe(10_000);
  expect(parseDuration('5m')).toBe(300_000);
  expect(parseDuration('7d')).toBe(604_800_000);
  expect(parseDuration('250ms')).toBe(250);
  expect(parseDuration('1h30m')).toBe(5_400_000);
  expect(parseDuration('2w')).toBe(1_209_600_000);
  expect(parseDuration('0s')).toBe(0);
  for (const bad of ['', '10', 's', '7x', '1.5h', '-5m', '5 m', '5m ', 'm5', '10sx']) {
    expect(parseDuration(bad), bad).toBeUndefined();
  }
  expect(parseDuration(`${'9'.repeat(20)}w`)).toBeUndefined();
});
