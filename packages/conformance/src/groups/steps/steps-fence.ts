import { randomUUID } from 'node:crypto';
import type { Driver, Fence, ManualClock } from '@berth/core';
import { expect } from 'vitest';
import { expectRefusal } from '../../assert.js';
import type { KitCase } from '../../kit.js';
import {
  claimExactly,
  enqueueAndClaim,
  fenceOf,
  OTHER_WORKER,
  stepRecord,
  WORKER,
} from '../fixtures/index.js';

interface Lost {
  readonly runId: string;
  readonly stale: Fence;
}

/** Ways a worker's fence stops holding, each leaving `stale` behind for a step put. */
const lost: ReadonlyArray<
  readonly [string, (driver: Driver, clock: ManualClock, t0: number) => Promise<Lost>]
> = [
  [
    'the lease lapsed and another worker re-claimed the job',
    async (driver, clock) => {
      const { job, fence } = await enqueueAndClaim(driver, {}, WORKER, 1_000);
      await clock.advance(1_000);
      await claimExactly(driver, job.queue, job.id, OTHER_WORKER);
      return { runId: job.runId, stale: fence };
    },
  ],
  [
    'the job was cancelled',
    async (driver) => {
      const { job, fence } = await enqueueAndClaim(driver);
      await driver.cancel(job.id);
      return { runId: job.runId, stale: fence };
    },
  ],
  [
    'the job was acked',
    async (driver) => {
      const { job, fence } = await enqueueAndClaim(driver);
      expect(await driver.ack(fence)).toBe(true);
      return { runId: job.runId, stale: fence };
    },
  ],
  [
    'the job was suspended',
    async (driver, _clock, t0) => {
      const { job, fence } = await enqueueAndClaim(driver);
      expect(await driver.suspend(fence, { until: t0 + 60_000 })).toBe(true);
      return { runId: job.runId, stale: fence };
    },
  ],
  [
    'the fence names another worker',
    async (driver) => {
      const { job, fence } = await enqueueAndClaim(driver);
      return { runId: job.runId, stale: { ...fence, workerId: OTHER_WORKER } };
    },
  ],
  [
    'the fence names a job nobody queued',
    async () => ({
      runId: randomUUID(),
      stale: { jobId: randomUUID(), workerId: WORKER, claim: 1 },
    }),
  ],
];

export const stepsFenceCases: readonly KitCase[] = [
  ...lost.map(
    ([what, make]): KitCase => ({
      title: `put throws LEASE_LOST naming the fence when ${what}, and writes nothing`,
      run: async ({ driver, clock, t0 }) => {
        const { runId, stale } = await make(driver, clock, t0);
        await expectRefusal(driver.steps.put(stepRecord(runId, 'late', t0), stale), 'LEASE_LOST', {
          jobId: stale.jobId,
          workerId: stale.workerId,
          claim: stale.claim,
        });
        expect(await driver.steps.get(runId, 'late')).toBeUndefined();
        expect(await driver.steps.list(runId)).toEqual([]);
      },
    }),
  ),
  {
    title: 'a refused put leaves the step it would have replaced as it was',
    run: async ({ driver, clock, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver, {}, WORKER, 1_000);
      const first = stepRecord(job.runId, 'charge', t0, { output: 'first' });
      await driver.steps.put(first, fence);
      await clock.advance(1_000);
      const again = await claimExactly(driver, job.queue, job.id, OTHER_WORKER);
      const stale = stepRecord(job.runId, 'charge', t0, { output: 'stale', updatedAt: t0 + 1_000 });
      await expectRefusal(driver.steps.put(stale, fence), 'LEASE_LOST', { claim: fence.claim });
      expect(await driver.steps.list(job.runId)).toStrictEqual([first]);
      // The new holder writes over it.
      const fresh = stepRecord(job.runId, 'charge', t0, { output: 'fresh', updatedAt: t0 + 1_000 });
      await driver.steps.put(fresh, fenceOf(again));
      expect(await driver.steps.list(job.runId)).toStrictEqual([fresh]);
    },
  },
  {
    title:
      'put with a lapsed lease nobody re-claimed still lands: the fence holds until a new claim',
    run: async ({ driver, clock, t0 }) => {
      const { job, fence } = await enqueueAndClaim(driver, {}, WORKER, 1_000);
      await clock.advance(5_000);
      const step = stepRecord(job.runId, 'slow', t0 + 5_000);
      await driver.steps.put(step, fence);
      expect(await driver.steps.get(job.runId, 'slow')).toStrictEqual(step);
    },
  },
  {
    title:
      "put whose record.runId is not the fenced job's run throws STEP_INVALID and writes nothing",
    run: async ({ driver, t0 }) => {
      const mine = await enqueueAndClaim(driver);
      const other = await enqueueAndClaim(driver);
      const strayRunId = randomUUID();
      for (const runId of [other.job.runId, strayRunId]) {
        const error = await expectRefusal(
          driver.steps.put(stepRecord(runId, 'stray', t0), mine.fence),
          'STEP_INVALID',
        );
        expect(error.meta).toMatchObject({ jobId: mine.job.id, runId, step: 'stray' });
        expect(await driver.steps.list(runId)).toEqual([]);
      }
      expect(await driver.steps.list(mine.job.runId)).toEqual([]);
      // The fence is untouched: the job's own run still takes the step.
      await driver.steps.put(stepRecord(mine.job.runId, 'stray', t0), mine.fence);
      expect(await driver.steps.list(mine.job.runId)).toHaveLength(1);
    },
  },
];
