import { kitGroups } from './groups/index.js';
import { type DriverFactory, type KitOptions, runsGroup } from './kit.js';
import { runCase } from './run-case.js';

export interface KitFailure {
  readonly group: string;
  readonly title: string;
  readonly error: unknown;
}

export interface KitReport {
  readonly ran: number;
  readonly failures: readonly KitFailure[];
}

/**
 * Runs the kit outside vitest's registration and reports what failed: how the kit's own tests
 * show that a broken driver does not pass.
 */
export async function runKit(factory: DriverFactory, options: KitOptions = {}): Promise<KitReport> {
  const failures: KitFailure[] = [];
  let ran = 0;
  for (const group of kitGroups(options, factory.capabilities)) {
    if (!runsGroup(options, group.name)) continue;
    for (const kitCase of group.cases) {
      ran += 1;
      try {
        await runCase(group.factory ?? factory, kitCase, options);
      } catch (error) {
        failures.push({ group: group.name, title: kitCase.title, error });
      }
    }
  }
  return { ran, failures };
}
