import { type DriverFactory, GOLDEN_SCENARIOS, type KitReport, runKit } from '@berth/conformance';
import {
  type ClaimedJob,
  type ClaimRequest,
  type Driver,
  type EnqueueRequest,
  isBerthError,
  type JobRecord,
} from '@berth/core';
import { driverUnavailable } from '@berth/core/driver';
import { describe, expect, it } from 'vitest';
import { broken, memory } from './broken.js';

/** (a) A requeue of an unknown id answers "unavailable", as the old pg driver did. */
const requeueUnavailable = broken((real) => ({
  requeue: async (id, options) => {
    try {
      return await real.requeue(id, options);
    } catch (error) {
      if (!isBerthError(error, 'JOB_NOT_FOUND')) throw error;
      throw driverUnavailable({ driver: real.name, operation: 'requeue a job', detail: 'no row' });
    }
  },
}));

/** (b) An ack that ignores the fence: it completes whoever holds the row, and always lands. */
const ackUnfenced = broken((real) => ({
  ack: async (fence, options) => {
    const row = await real.get(fence.jobId);
    if (row?.state === 'running' && row.claimedBy !== undefined) {
      await real.ack({ jobId: row.id, workerId: row.claimedBy, claim: row.claim }, options);
    }
    return true;
  },
}));

const withoutReport = (request: ClaimRequest, limit: number): ClaimRequest => ({
  queues: request.queues,
  workerId: request.workerId,
  visibilityTimeoutMs: request.visibilityTimeoutMs,
  limit,
  ...(request.dropExhausted === undefined ? {} : { dropExhausted: request.dropExhausted }),
});

/** (c) A claim that hands a lapsed final attempt out again instead of burying it. */
const claimHandsOutExhausted = broken((real) => ({
  claim: async (request) => {
    const buried: JobRecord[] = [];
    const claimed = await real.claim({
      ...withoutReport(request, request.limit ?? 1),
      onExhausted: (rows) => buried.push(...rows),
    });
    if (buried.length === 0) return claimed;
    for (const row of buried) await real.requeue(row.id).catch(() => undefined);
    const revived: readonly ClaimedJob[] = await real.claim(withoutReport(request, buried.length));
    return [...claimed, ...revived];
  },
}));

/** (d) An enqueue that ignores idempotency: every request makes a new row. */
const enqueueIgnoresKeys = broken((real) => ({
  // One body for both overloads: the break is the same with or without a mark.
  enqueue: ((request: EnqueueRequest) => {
    const { idempotencyKey: _key, onConflict: _conflict, ...rest } = request;
    return real.enqueue(rest);
  }) as Driver['enqueue'],
}));

/** The kit's own parts, plus the contract groups whose sections these breaks violate. */
const KIT_PARTS = ['golden', 'differential'];
const CONTRACT_GROUPS = ['enqueue', 'claim', 'settle', 'requeue', 'tenancy'];

/** A fixed seed: the same 200 differential sequences every run, so the verdicts never flake. */
const SEED = 2026;

const run = (factory: DriverFactory, groups: readonly string[]) =>
  runKit(factory, {
    reference: memory,
    only: [...KIT_PARTS, ...groups],
    differentialSeed: SEED,
  });

const failedGroups = (report: KitReport) => new Set(report.failures.map((f) => f.group));

/** The golden scenarios that failed, by name. */
const failedScenarios = (report: KitReport) =>
  GOLDEN_SCENARIOS.filter((name) =>
    report.failures.some((f) => f.group === 'golden' && f.title.startsWith(`golden ${name}:`)),
  );

const describeFailures = (report: KitReport) =>
  report.failures.map((f) => `${f.group} / ${f.title}: ${String(f.error).slice(0, 300)}`);

describe('the conformance kit', () => {
  it('passes the unbroken memory driver with zero failures', async () => {
    const report = await run(memory, CONTRACT_GROUPS);
    expect(describeFailures(report)).toEqual([]);
    expect(report.ran).toBeGreaterThan(GOLDEN_SCENARIOS.length + 1);
  }, 300_000);

  it('fails a driver whose requeue of an unknown id answers DRIVER_UNAVAILABLE', async () => {
    const report = await run(requeueUnavailable, ['requeue', 'tenancy']);
    expect(failedScenarios(report)).toEqual(['requeue-not-found', 'requeue-purge-race', 'tenancy']);
    expect([...failedGroups(report)].sort()).toEqual(
      ['differential', 'golden', 'requeue', 'tenancy'].sort(),
    );
  }, 300_000);

  it('fails a driver whose ack ignores the fence', async () => {
    const report = await run(ackUnfenced, ['settle']);
    expect(failedScenarios(report)).toEqual(['cancel-refusals', 'lease-burial', 'attempt-history']);
    expect([...failedGroups(report)].sort()).toEqual(['differential', 'golden', 'settle']);
  }, 300_000);

  it('fails a driver whose claim hands out a lapsed final attempt instead of burying it', async () => {
    const report = await run(claimHandsOutExhausted, ['claim']);
    expect(failedScenarios(report)).toEqual(['lease-burial']);
    expect([...failedGroups(report)].sort()).toEqual(['claim', 'differential', 'golden']);
  }, 300_000);

  it('fails a driver whose enqueue ignores idempotency keys', async () => {
    const report = await run(enqueueIgnoresKeys, ['enqueue']);
    expect(failedScenarios(report)).toEqual([
      'requeue-key-taken',
      'enqueue-retry-one-miss',
      'enqueue-retry-two-misses',
      'dedupe',
      'on-conflict-error',
      // The records it deletes carry the idempotency key this driver drops.
      'delete-answers',
    ]);
    expect([...failedGroups(report)].sort()).toEqual(['differential', 'enqueue', 'golden']);
  }, 300_000);
});
