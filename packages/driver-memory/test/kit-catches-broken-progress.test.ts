import { runKit } from '@berth/conformance';
import { describe, expect, it } from 'vitest';
import { broken, memory } from './broken.js';

/** A progress write that ignores the fence: it writes for whoever holds the row, and always lands. */
const progressUnfenced = broken((real) => ({
  progress: async (fence, value) => {
    const row = await real.get(fence.jobId);
    if (row?.state === 'running' && row.claimedBy !== undefined) {
      await real.progress({ jobId: row.id, workerId: row.claimedBy, claim: row.claim }, value);
    }
    return true;
  },
}));

/** A progress write that lands but extends the lease as it goes (a write that is not only progress). */
const progressRenews = broken((real) => ({
  progress: async (fence, value) => {
    const landed = await real.progress(fence, value);
    if (landed) await real.extend(fence, 60_000);
    return landed;
  },
}));

/** A claim that clears the last attempt's progress (the contract keeps it until the next write). */
const claimClearsProgress = broken((real) => ({
  claim: async (request) => {
    const claimed = await real.claim(request);
    return claimed.map(({ progress: _dropped, ...job }) => job);
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
    only: ['progress', 'differential'],
    differentialSeed: SEED,
    differentialRuns: DIFFERENTIAL_RUNS,
  });
  return [...new Set(report.failures.map((failure) => failure.group))].sort();
};

describe('the conformance kit: progress', () => {
  it('passes the unbroken memory driver', async () => {
    expect(await failedGroups(memory)).toEqual([]);
  }, 300_000);

  it('fails a driver whose progress write ignores the fence', async () => {
    expect(await failedGroups(progressUnfenced)).toEqual(['differential', 'progress']);
  }, 300_000);

  it('fails a driver whose progress write also renews the lease', async () => {
    expect(await failedGroups(progressRenews)).toEqual(['differential', 'progress']);
  }, 300_000);

  it('fails a driver whose claim answers without the progress the last attempt left', async () => {
    expect(await failedGroups(claimClearsProgress)).toContain('progress');
  }, 300_000);
});
