import { describe, it } from 'vitest';
import { kitGroups } from './groups/index.js';
import type { DriverFactory, KitOptions } from './kit.js';
import { runCase } from './run-case.js';

/**
 * Registers the whole kit as vitest suites: `describe(name)` holding one `describe` per group
 * and one `it` per case. Every case runs on its own fresh driver from `factory`.
 */
export function describeDriver(
  name: string,
  factory: DriverFactory,
  options: KitOptions = {},
): void {
  describe(`${name} driver conformance`, () => {
    for (const group of kitGroups(options)) {
      if (options.only !== undefined && !options.only.includes(group.name)) continue;
      describe(group.name, () => {
        for (const kitCase of group.cases) {
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
