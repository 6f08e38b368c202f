import type { KitCase, KitGroup } from './kit.js';

/** One of `count` files that together run the whole kit, each a share of its cases. */
export interface KitShard {
  /** This file's share, from 0. */
  readonly index: number;
  /** How many files share the kit; every case runs in exactly one of them. */
  readonly count: number;
}

/** What a typical case takes against a local server (the pg kit's median is ~120 ms). */
const TYPICAL_COST_MS = 200;

/** What a case is expected to cost, for balancing: its own estimate, else a typical case's. */
export const caseCost = (kitCase: KitCase): number => kitCase.costMs ?? TYPICAL_COST_MS;

/**
 * The cases of `groups` that `shard` runs, by group. The heaviest units are dealt first, each to
 * the share with the least weight so far (ties to the lowest index), so the long cases spread
 * over the files and every case lands in exactly one share whatever the kit holds. A unit is one
 * case, or a whole group that opens its drivers from a factory of its own (group `restart`'s
 * private server is then started by one file, not by each).
 */
export function shardCases(groups: readonly KitGroup[], shard: KitShard): Map<KitGroup, KitCase[]> {
  if (!Number.isInteger(shard.count) || shard.count < 1) {
    throw new Error(`a kit shard count must be a whole number from 1; got ${shard.count}`);
  }
  if (!Number.isInteger(shard.index) || shard.index < 0 || shard.index >= shard.count) {
    throw new Error(`a kit shard index must be 0 to ${shard.count - 1}; got ${shard.index}`);
  }
  const units = groups.flatMap((group) =>
    group.factory === undefined ? group.cases.map((kitCase) => [kitCase]) : [group.cases],
  );
  const order = units
    .map((cases, position) => ({
      cases,
      position,
      weight: cases.reduce((sum, kitCase) => sum + caseCost(kitCase), 0),
    }))
    .sort((a, b) => b.weight - a.weight || a.position - b.position);
  const loads = Array.from({ length: shard.count }, () => 0);
  const mine = new Set<KitCase>();
  for (const unit of order) {
    const lightest = loads.indexOf(Math.min(...loads));
    loads[lightest] = (loads[lightest] ?? 0) + unit.weight;
    if (lightest === shard.index) for (const kitCase of unit.cases) mine.add(kitCase);
  }
  const picked = new Map<KitGroup, KitCase[]>();
  for (const group of groups) {
    const cases = group.cases.filter((kitCase) => mine.has(kitCase));
    if (cases.length > 0) picked.set(group, cases);
  }
  return picked;
}
