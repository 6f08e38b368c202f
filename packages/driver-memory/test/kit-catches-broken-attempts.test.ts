import { runKit } from '@berth/conformance';
import type { AttemptHistory } from '@berth/core';
import { describe, expect, it } from 'vitest';
import { broken, memory } from './broken.js';

/** A history read that drops the tenant: another tenant's job shows its attempts. */
const attemptsIgnoreTenant = broken((real) => ({
  attempts: { list: (id) => real.attempts.list(id) },
}));

/** A history read newest first. */
const attemptsNewestFirst = broken((real) => ({
  attempts: {
    list: async (id, options) => {
      const history = await real.attempts.list(id, options);
      if (history === undefined) return undefined;
      const reversed: AttemptHistory = { ...history, records: [...history.records].reverse() };
      return reversed;
    },
  },
}));

const SEED = 2026;
/**
 * More runs than the kit's CI floor (200): memory against memory costs about a millisecond a
 * run, and with every contract area's ops in the mix (pause, delete, attempts, logs…) a sequence
 * that retries one job and then reads what this broken driver gets wrong is rarer per run.
 */
const DIFFERENTIAL_RUNS = 1_000;
const failedGroups = async (factory: Parameters<typeof runKit>[0]) => {
  const report = await runKit(factory, {
    reference: memory,
    only: ['attempts', 'golden', 'differential'],
    differentialSeed: SEED,
    differentialRuns: DIFFERENTIAL_RUNS,
  });
  return [...new Set(report.failures.map((failure) => failure.group))].sort();
};

describe('the conformance kit, on attempt history', () => {
  it('passes the unbroken memory driver', async () => {
    expect(await failedGroups(memory)).toEqual([]);
  }, 300_000);

  it('fails a driver whose attempts.list shows another tenant its job', async () => {
    expect(await failedGroups(attemptsIgnoreTenant)).toEqual([
      'attempts',
      'differential',
      'golden',
    ]);
  }, 300_000);

  // Not asserted of the differential: it shows only when a random sequence retries one job and
  // then reads its history, which every op kind added to the mix makes rarer (this seed found it
  // before pause, delete and logs joined); the attempts group and golden find it every time.
  it('fails a driver whose attempts.list answers newest first', async () => {
    expect(await failedGroups(attemptsNewestFirst)).toEqual(
      expect.arrayContaining(['attempts', 'golden']),
    );
  }, 300_000);
});
