import { type DriverFactory, inProcessStore, runKit } from '@berth/conformance';
import type { Driver, JobRecord } from '@berth/core';
import { describe, expect, it } from 'vitest';
import { memory } from './broken.js';

const withStore: DriverFactory = async (context) => ({
  ...(await memory(context)),
  server: inProcessStore,
});

/** An instance that, once cut off and back, answers jobs it read before even after their purge. */
function ghostly(real: Driver): { driver: Driver; thaw(): void } {
  const seen = new Map<string, JobRecord>();
  let thawed = false;
  return {
    driver: {
      ...real,
      get: async (id, options) => {
        const answer = await real.get(id, options);
        if (answer !== undefined) seen.set(id, answer);
        return answer ?? (thawed ? seen.get(id) : undefined);
      },
    },
    thaw: () => {
      thawed = true;
    },
  };
}

/** A deployment whose processes keep purged rows after a silent cut-off (NATS's old ghosts). */
const keepsGhosts: DriverFactory = async (context) => {
  const made = await memory(context);
  const thaws = new Map<object, () => void>();
  const open = (real: Driver): Driver => {
    const { driver, thaw } = ghostly(real);
    thaws.set(driver, thaw);
    return driver;
  };
  const { sibling } = made;
  return {
    driver: open(made.driver),
    ...(sibling === undefined ? {} : { sibling: async (at) => open(await sibling(at)) }),
    dispose: made.dispose,
    server: { ...inProcessStore, thaw: async (instance) => thaws.get(instance)?.() },
  };
};

const restartFailures = async (factory: DriverFactory) => {
  const report = await runKit(factory, { reference: memory, only: ['restart'] });
  expect(report.ran).toBe(3);
  return report.failures;
};

describe('the conformance kit: restart', () => {
  it('passes the unbroken memory driver, whose store lives in its process', async () => {
    expect(await restartFailures(withStore)).toEqual([]);
  }, 60_000);

  it('fails a driver whose cut-off process answers rows purged while it was away', async () => {
    const failures = await restartFailures(keepsGhosts);
    expect(failures.map((failure) => failure.title)).toEqual([
      expect.stringContaining('cut off without noticing'),
    ]);
    // The reference answers (none) for a purged job; the cut-off process still answers it.
    expect(String(failures[0]?.error)).toMatch(
      /"kind":"get".*\n {2}memory: \{"id".*\n {2}memory: "\(none\)"/,
    );
  }, 60_000);

  it('fails every case of a factory that answers no server control, saying what to pass', async () => {
    const failures = await restartFailures(memory);
    expect(failures).toHaveLength(3);
    for (const failure of failures) {
      expect(String(failure.error)).toContain('answers no `server`');
      expect(String(failure.error)).toContain('serverFactory');
    }
  }, 60_000);
});
