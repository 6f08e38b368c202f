import { describe, it } from 'vitest';
import { kitGroups } from './groups/index.js';
import type { DriverFactory, KitOptions } from './kit.js';
import { runCase } from './run-case.js';
import { shardCases } from './shard.js';

/**
 * Registers the whole kit as vitest suites: `describe(name)` holding one `describe` per group
 * and one `it` per case. Every case runs on its own fresh driver from `factory`. With
 * `options.shard`, only that share of the cases: test files calling it with every index of one
 * count run the whole kit between them, in parallel where the runner allows.
 */
export function describeDriver(
  name: string,
  factory: DriverFactory,
  options: KitOptions = {},
): void {
  const groups = kitGroups(options).filter(
    (group) => options.only === undefined || options.only.includes(group.name),
  );
  const cases = shardCases(groups, options.shard ?? { index: 0, count: 1 });
  const suffix =
    options.shard === undefined
      ? ''
      : ` (share ${options.shard.index + 1} of ${options.shard.count})`;
  describe(`${name} driver conformance${suffix}`, () => {
    for (const [group, groupCases] of cases) {
      describe(group.name, () => {
        for (const kitCase of groupCases) {
          it(
            kitCase.title,
            () => runCase(group.factory ?? factory, kitCase, options),
            kitCase.timeoutMs,
          );
        }
      });
    }
  });
}
