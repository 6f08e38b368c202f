import { describe, expect, it } from 'vitest';
import { kitGroups } from '../src/groups/index.js';
import type { DriverFactory, KitCase } from '../src/kit.js';
import { caseCost, shardCases } from '../src/shard.js';

// Never called: sharding only reads which groups open their drivers from a factory of their own.
const privateServer: DriverFactory = async () => {
  throw new Error('not opened in this test');
};
const groups = kitGroups({ serverFactory: privateServer }, { inAppTransaction: true });
const shares = (count: number) =>
  Array.from({ length: count }, (_, index) => [...shardCases(groups, { index, count }).values()]);

describe('kit shards', () => {
  it('files taking every share of one count run each case of the kit exactly once', () => {
    for (const count of [1, 2, 3, 5]) {
      const ran = shares(count).flatMap((share) => share.flat());
      expect(ran).toHaveLength(new Set(ran).size);
      expect(new Set(ran)).toEqual(new Set(groups.flatMap((group) => group.cases)));
    }
  });

  it('shares are balanced by expected cost: none exceeds an even share by more than the heaviest case', () => {
    const all = groups.flatMap((group) => group.cases);
    const total = all.reduce((sum, kitCase) => sum + caseCost(kitCase), 0);
    const restart = groups.filter((group) => group.factory !== undefined).flatMap((g) => g.cases);
    const heaviest = Math.max(
      ...all.map(caseCost),
      restart.reduce((sum, kitCase) => sum + caseCost(kitCase), 0),
    );
    for (const share of shares(3)) {
      const load = share.flat().reduce((sum, kitCase) => sum + caseCost(kitCase), 0);
      expect(load).toBeLessThanOrEqual(total / 3 + heaviest);
    }
  });

  it('the heaviest units (a long case, or a whole group with a factory of its own) land in different shares while there are shares to spare', () => {
    const units = groups.flatMap((group) =>
      group.factory === undefined ? group.cases.map((kitCase) => [kitCase]) : [group.cases],
    );
    const weight = (unit: readonly KitCase[]) =>
      unit.reduce((sum, kitCase) => sum + caseCost(kitCase), 0);
    const long = units.filter((unit) => weight(unit) >= 10_000);
    expect(long.length).toBeGreaterThanOrEqual(3);
    const heaviest = [...long].sort((a, b) => weight(b) - weight(a)).slice(0, 3);
    const holders = heaviest.map((unit) =>
      shares(3).findIndex((share) => share.flat().includes(unit[0] as KitCase)),
    );
    expect(new Set(holders).size).toBe(3);
  });

  it('a group with a factory of its own runs whole in one share', () => {
    const own = groups.filter((group) => group.factory !== undefined);
    expect(own.length).toBeGreaterThanOrEqual(1);
    for (const group of own) {
      const holding = shares(3).filter((share) =>
        share.flat().some((c) => group.cases.includes(c)),
      );
      expect(holding).toHaveLength(1);
      expect(holding[0]?.flat().filter((c) => group.cases.includes(c))).toHaveLength(
        group.cases.length,
      );
    }
  });

  it('a share outside its count is refused', () => {
    expect(() => shardCases(groups, { index: 3, count: 3 })).toThrow(/0 to 2/);
    expect(() => shardCases(groups, { index: 0, count: 0 })).toThrow(/from 1/);
  });
});
