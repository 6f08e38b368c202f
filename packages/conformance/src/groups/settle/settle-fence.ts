import { randomUUID } from 'node:crypto';
import type { Driver, Fence, ManualClock } from '@berth/core';
import { expect } from 'vitest';
import type { KitCase } from '../../kit.js';
import { claimExactly, enqueueAndClaim, fenceOf, OTHER_WORKER, WORKER } from '../fixtures/index.js';

export interface Stale {
  /** The job the stale fence names. */
  readonly jobId: string;
  readonly stale: Fence;
  /** The fence that does hold now, when one does: it must still land afterwards. */
  readonly holder?: Fence;
}

export interface Scenario {
  readonly what: string;
  readonly make: (driver: Driver, clock: ManualClock, t0: number) => Promise<Stale>;
}

/** Fences that no longer hold (or never did), each made on a fresh row; the progress group reuses them. */
export const staleFences: readonly Scenario[] = [
  {
    what: 'a wrong workerId',
    make: async (driver) => {
      const { fence } = await enqueueAndClaim(driver);
      return { jobId: fence.jobId, stale: { ...fence, workerId: OTHER_WORKER }, holder: fence };
    },
  },
  {
    what: 'an old claim token (the lease lapsed and another worker claimed the row)',
    make: async (driver, clock) => {
      const { job, fence } = await enqueueAndClaim(driver, {}, WORKER, 1_000);
      await clock.advance(1_000);
      const again = await claimExactly(driver, job.queue, job.id, OTHER_WORKER);
      return { jobId: job.id, stale: fence, holder: fenceOf(again) };
    },
  },
  {
    what: 'a claim token ahead of the row',
    make: async (driver) => {
      const { fence } = await enqueueAndClaim(driver);
      return { jobId: fence.jobId, stale: { ...fence, claim: fence.claim + 1 }, holder: fence };
    },
  },
  {
    what: 'a job cancelled while it ran',
    make: async (driver) => {
      const { fence } = await enqueueAndClaim(driver);
      expect((await driver.cancel(fence.jobId)).state).toBe('cancelled');
      return { jobId: fence.jobId, stale: fence };
    },
  },
  {
    what: 'a job already acked',
    make: async (driver) => {
      const { fence } = await enqueueAndClaim(driver);
      expect(await driver.ack(fence)).toBe(true);
      return { jobId: fence.jobId, stale: fence };
    },
  },
  {
    what: 'a job already nacked back to ready',
    make: async (driver) => {
      const { fence } = await enqueueAndClaim(driver);
      expect(await driver.nack(fence, { error: { message: 'retry' } })).toBe(true);
      return { jobId: fence.jobId, stale: fence };
    },
  },
  {
    what: 'a job already suspended',
    make: async (driver, _clock, t0) => {
      const { fence } = await enqueueAndClaim(driver);
      expect(await driver.suspend(fence, { until: t0 + 60_000 })).toBe(true);
      return { jobId: fence.jobId, stale: fence };
    },
  },
  {
    what: 'a job a claim buried after its final lease lapsed',
    make: async (driver, clock) => {
      const { job, fence } = await enqueueAndClaim(driver, { maxAttempts: 1 }, WORKER, 1_000);
      await clock.advance(1_000);
      await driver.claim({ queues: [job.queue], workerId: OTHER_WORKER, visibilityTimeoutMs: 1 });
      return { jobId: job.id, stale: fence };
    },
  },
  {
    what: 'a job nobody claimed yet',
    make: async (driver) => {
      const { id } = await driver.enqueue({ name: 'unclaimed' });
      return { jobId: id, stale: { jobId: id, workerId: WORKER, claim: 0 } };
    },
  },
];

/** Every fenced settle, each answering whether it landed. */
const settles: ReadonlyArray<
  readonly [string, (driver: Driver, fence: Fence, t0: number) => Promise<readonly boolean[]>]
> = [
  ['ack', async (driver, fence) => [await driver.ack(fence, { result: 'stale' })]],
  ['nack', async (driver, fence) => [await driver.nack(fence, { error: { message: 'stale' } })]],
  [
    'nack final',
    async (driver, fence) => [await driver.nack(fence, { error: { message: 'x' }, final: true })],
  ],
  ['suspend', async (driver, fence, t0) => [await driver.suspend(fence, { until: t0 + 1 })]],
  ['extend', async (driver, fence) => [await driver.extend(fence, 60_000)]],
  ['ackMany', (driver, fence) => driver.ackMany([{ fence, result: 'stale' }])],
  ['nackMany', (driver, fence) => driver.nackMany([{ fence, error: { message: 'stale' } }])],
  ['extendMany', (driver, fence) => driver.extendMany([fence], 60_000)],
];

export const settleFenceCases: readonly KitCase[] = [
  ...staleFences.map(
    ({ what, make }): KitCase => ({
      title: `every settle with ${what} answers false and changes nothing`,
      run: async ({ driver, clock, t0 }) => {
        const { jobId, stale, holder } = await make(driver, clock, t0);
        const before = await driver.get(jobId);
        for (const [name, settle] of settles) {
          expect(await settle(driver, stale, t0), name).toEqual([false]);
        }
        expect(await driver.get(jobId)).toStrictEqual(before);
        if (holder !== undefined) expect(await driver.ack(holder)).toBe(true);
      },
    }),
  ),
  {
    title: 'every settle of a job id nobody queued answers false',
    run: async ({ driver, t0 }) => {
      const stale = { jobId: randomUUID(), workerId: WORKER, claim: 1 };
      for (const [name, settle] of settles) {
        expect(await settle(driver, stale, t0), name).toEqual([false]);
      }
      expect(await driver.get(stale.jobId)).toBeUndefined();
    },
  },
];
