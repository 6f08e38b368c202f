import { runKit } from '@berth/conformance';
import type { BackfillLedger } from '@berth/core';
import { describe, expect, it } from 'vitest';
import { broken, memory } from './broken.js';

type Ledger = (real: BackfillLedger) => Partial<BackfillLedger>;
const brokenLedger = (override: Ledger) =>
  broken((real) => ({ backfills: { ...real.backfills, ...override(real.backfills) } }));

/** A commit that ignores the pass it names: a zombie's second commit of a pass counts again. */
const commitUnfenced = brokenLedger((real) => ({
  commit: async (runId, pass) => {
    const run = await real.get(runId);
    if (run === undefined) return undefined;
    return real.commit(runId, { ...pass, jobId: run.jobId, passes: run.passes });
  },
}));

/** A start that never refuses: two runs of one name go at once. */
const startUnbounded = brokenLedger((real) => ({
  start: (request) => real.start({ ...request, maxActive: 1_000 }),
}));

/** A list in oldest-first order. */
const listOldestFirst = brokenLedger((real) => ({
  list: async (options) => [...(await real.list(options))].reverse(),
}));

const SEED = 2026;
const failedGroups = async (factory: Parameters<typeof runKit>[0]) => {
  const report = await runKit(factory, {
    reference: memory,
    only: ['backfills', 'golden', 'differential'],
    differentialSeed: SEED,
  });
  return [...new Set(report.failures.map((failure) => failure.group))].sort();
};

describe('the conformance kit: the backfill ledger', () => {
  it('passes the unbroken memory driver', async () => {
    expect(await failedGroups(memory)).toEqual([]);
  }, 300_000);

  it('fails a driver whose commit ignores the pass and runner it names', async () => {
    expect(await failedGroups(commitUnfenced)).toEqual(['backfills', 'differential', 'golden']);
  }, 300_000);

  it('fails a driver whose start lets a second run of a name begin', async () => {
    expect(await failedGroups(startUnbounded)).toEqual(['backfills', 'differential', 'golden']);
  }, 300_000);

  it('fails a driver that lists runs oldest first', async () => {
    expect(await failedGroups(listOldestFirst)).toEqual(['backfills', 'differential', 'golden']);
  }, 300_000);
});
