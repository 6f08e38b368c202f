import { runKit } from '@berth/conformance';
import { describe, expect, it } from 'vitest';
import { broken, memory } from './broken.js';

/** A batched renewal that ignores each item's fence: it renews whoever holds the row. */
const extendManyUnfenced = broken((real) => ({
  extendMany: async (items, ms) => {
    const answers: boolean[] = [];
    for (const fence of items) {
      const row = await real.get(fence.jobId);
      if (row?.state !== 'running' || row.claimedBy === undefined) {
        answers.push(false);
        continue;
      }
      const holder = { jobId: row.id, workerId: row.claimedBy, claim: row.claim };
      answers.push(await real.extend(holder, ms));
    }
    return answers;
  },
}));

/** A batched renewal that answers in the order the rows were found, not the order asked. */
const extendManyReordered = broken((real) => ({
  extendMany: async (items, ms) => {
    const answers = await real.extendMany(items, ms);
    return [...answers].sort((a, b) => Number(b) - Number(a));
  },
}));

const SEED = 2026;
const failedGroups = async (factory: Parameters<typeof runKit>[0]) => {
  const report = await runKit(factory, {
    reference: memory,
    only: ['settle', 'differential'],
    differentialSeed: SEED,
  });
  return [...new Set(report.failures.map((failure) => failure.group))].sort();
};

describe('the conformance kit: extendMany', () => {
  it('passes the unbroken memory driver', async () => {
    expect(await failedGroups(memory)).toEqual([]);
  }, 300_000);

  it('fails a driver whose extendMany ignores each item fence', async () => {
    expect(await failedGroups(extendManyUnfenced)).toContain('settle');
  }, 300_000);

  it('fails a driver whose extendMany answers out of input order', async () => {
    expect(await failedGroups(extendManyReordered)).toContain('settle');
  }, 300_000);
});
