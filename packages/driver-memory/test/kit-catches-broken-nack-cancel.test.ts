import { runKit } from '@berth/conformance';
import { describe, expect, it } from 'vitest';
import { broken, memory } from './broken.js';

/** A nack that ignores `cancel`: a job the worker chose not to run is retried instead. */
const cancelIgnored = broken((real) => ({
  nack: (fence, { cancel: _ignored, ...options }) => real.nack(fence, options),
  nackMany: (items) => real.nackMany(items.map(({ cancel: _ignored, ...item }) => item)),
}));

/** A nack-cancel that lands whatever the fence says. */
const cancelUnfenced = broken((real) => ({
  nack: async (fence, options) => {
    if (options.cancel !== true) return real.nack(fence, options);
    const row = await real.get(fence.jobId);
    if (row?.state !== 'running' || row.claimedBy === undefined) return false;
    const held = { jobId: row.id, workerId: row.claimedBy, claim: row.claim };
    return real.nack(held, options);
  },
}));

const failedGroups = async (factory: Parameters<typeof runKit>[0]) => {
  // The settle group alone: the runtime group's scenarios (skip, debounce) cost seconds each.
  const report = await runKit(factory, { reference: memory, only: ['settle'] });
  return [...new Set(report.failures.map((failure) => failure.group))].sort();
};

describe('the conformance kit: nack with cancel', () => {
  it('passes the unbroken memory driver', async () => {
    expect(await failedGroups(memory)).toEqual([]);
  }, 300_000);

  it('fails a driver whose nack ignores cancel', async () => {
    expect(await failedGroups(cancelIgnored)).toEqual(['settle']);
  }, 300_000);

  it('fails a driver whose nack with cancel ignores the fence', async () => {
    expect(await failedGroups(cancelUnfenced)).toEqual(['settle']);
  }, 300_000);
});
