import { beforeAll, describe, it } from 'vitest';
import { kitGroups } from './groups/index.js';
import { type DriverFactory, type KitOptions, runsGroup } from './kit.js';
import { runCase } from './run-case.js';
import { shardCases } from './shard.js';

/**
 * The timeout of the hook that runs KitOptions `serverStart`: longer than a private server's own
 * start deadlines (60 s), so a start that fails says why instead of the hook timing out.
 */
const SERVER_START_HOOK_MS = 120_000;

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
  const groups = kitGroups(options, factory.capabilities).filter((group) =>
    runsGroup(options, group.name),
  );
  const cases = shardCases(groups, options.shard ?? { index: 0, count: 1 });
  const suffix =
    options.shard === undefined
      ? ''
      : ` (share ${options.shard.index + 1} of ${options.shard.count})`;
  describe(`${name} driver conformance${suffix}`, () => {
    for (const [group, groupCases] of cases) {
      describe(group.name, () => {
        const ownServer = group.factory !== undefined && group.factory === options.serverFactory;
        if (ownServer && options.serverStart !== undefined) {
          beforeAll(options.serverStart, SERVER_START_HOOK_MS);
        }
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
