import type { ClaimedJob, Driver, JobRecord } from '@berth/core';
import { expect } from 'vitest';
import type { KitCase } from '../../kit.js';
import { claimExactly, freshQueue, mustGet, recordOf, WORKER, without } from '../fixtures/index.js';

const LAPSED = {
  code: 'LEASE_LAPSED',
  message: 'the lease lapsed on the final attempt and no attempts remain',
} as const;

/** Rows of `names` on their final attempt, claimed in one queue with a 1 s lease. */
async function finalAttempts(driver: Driver, names: readonly string[]): Promise<ClaimedJob[]> {
  const queue = freshQueue();
  const jobs: ClaimedJob[] = [];
  for (const name of names) {
    const { id } = await driver.enqueue({ name, queue, maxAttempts: 1 });
    jobs.push(await claimExactly(driver, queue, id, WORKER, 1_000));
  }
  return jobs;
}

/** What a buried row reads: settled at `now`, no lease, LEASE_LAPSED. */
const buriedAs = (job: ClaimedJob, state: 'dead' | 'failed', now: number): JobRecord => ({
  ...without(recordOf(job), 'claimedBy', 'visibleAt'),
  state,
  finishedAt: now,
  updatedAt: now,
  lastError: LAPSED,
});

/** A claim that records what it buried. */
function reporter(): {
  seen: (readonly JobRecord[])[];
  onExhausted: (rows: readonly JobRecord[]) => void;
} {
  const seen: (readonly JobRecord[])[] = [];
  return { seen, onExhausted: (rows) => seen.push(rows) };
}

export const claimLapseCases: readonly KitCase[] = [
  {
    title:
      'a lapsed lease on the final attempt is never handed out: the claim buries it dead with lastError LEASE_LAPSED and reports it once through onExhausted',
    run: async ({ driver, clock, t0 }) => {
      const [job] = await finalAttempts(driver, ['last-try']);
      if (job === undefined) throw new Error('no job');
      await clock.advance(1_000);
      const report = reporter();
      const claim = { queues: [job.queue], workerId: 'w-2', visibilityTimeoutMs: 1_000 };
      expect(await driver.claim({ ...claim, onExhausted: report.onExhausted })).toEqual([]);
      const expected = buriedAs(job, 'dead', t0 + 1_000);
      expect(report.seen).toStrictEqual([[expected]]);
      expect(await mustGet(driver, job.id)).toStrictEqual(expected);
      expect(await driver.claim({ ...claim, onExhausted: report.onExhausted })).toEqual([]);
      expect(report.seen).toHaveLength(1);
      expect(await driver.ack({ jobId: job.id, workerId: WORKER, claim: job.claim })).toBe(false);
    },
  },
  {
    title:
      'a job with attempts left is re-claimed after a lapse, and buried only once the last attempt lapses',
    run: async ({ driver, clock, t0 }) => {
      const queue = freshQueue();
      const { id } = await driver.enqueue({ name: 'twice', queue, maxAttempts: 2 });
      await claimExactly(driver, queue, id, WORKER, 1_000);
      await clock.advance(1_000);
      const second = await claimExactly(driver, queue, id, WORKER, 1_000);
      expect(second).toMatchObject({ attempts: 2, claim: 2 });
      await clock.advance(1_000);
      const report = reporter();
      const claimed = await driver.claim({
        queues: [queue],
        workerId: WORKER,
        visibilityTimeoutMs: 1_000,
        onExhausted: report.onExhausted,
      });
      expect(claimed).toEqual([]);
      expect(report.seen).toStrictEqual([[buriedAs(second, 'dead', t0 + 2_000)]]);
    },
  },
  {
    title: 'a lapsed final attempt of a name in dropExhausted is buried failed instead of dead',
    run: async ({ driver, clock, t0 }) => {
      const [flaky, sturdy] = await finalAttempts(driver, ['flaky', 'sturdy']);
      if (flaky === undefined || sturdy === undefined) throw new Error('no jobs');
      await clock.advance(1_000);
      const report = reporter();
      await driver.claim({
        queues: [flaky.queue],
        workerId: WORKER,
        visibilityTimeoutMs: 1_000,
        limit: 5,
        dropExhausted: ['flaky', 'someone-else'],
        onExhausted: report.onExhausted,
      });
      const now = t0 + 1_000;
      expect(report.seen).toStrictEqual([
        [buriedAs(flaky, 'failed', now), buriedAs(sturdy, 'dead', now)],
      ]);
      expect((await mustGet(driver, flaky.id)).state).toBe('failed');
      expect((await mustGet(driver, sturdy.id)).state).toBe('dead');
    },
  },
  {
    title: 'a claim buries lapsed final attempts even without onExhausted',
    run: async ({ driver, clock, t0 }) => {
      const [job] = await finalAttempts(driver, ['quiet']);
      if (job === undefined) throw new Error('no job');
      await clock.advance(1_000);
      expect(
        await driver.claim({ queues: [job.queue], workerId: WORKER, visibilityTimeoutMs: 1_000 }),
      ).toEqual([]);
      expect(await mustGet(driver, job.id)).toStrictEqual(buriedAs(job, 'dead', t0 + 1_000));
    },
  },
  {
    title: 'claimed and buried rows are limited separately, each by limit, in claim order',
    run: async ({ driver, clock, t0 }) => {
      const exhausted = await finalAttempts(driver, ['x1', 'x2', 'x3']);
      const queue = exhausted[0]?.queue ?? '';
      const ready = [];
      for (const name of ['r1', 'r2', 'r3']) ready.push((await driver.enqueue({ name, queue })).id);
      await clock.advance(1_000);
      const now = t0 + 1_000;
      const report = reporter();
      const claim = {
        queues: [queue],
        workerId: 'w-2',
        visibilityTimeoutMs: 1_000,
        limit: 2,
        onExhausted: report.onExhausted,
      };
      const first = await driver.claim(claim);
      expect(first.map((job) => job.id)).toEqual(ready.slice(0, 2));
      const second = await driver.claim(claim);
      expect(second.map((job) => job.id)).toEqual(ready.slice(2));
      const buried = exhausted.map((job) => buriedAs(job, 'dead', now));
      expect(report.seen).toStrictEqual([buried.slice(0, 2), buried.slice(2)]);
      expect(await driver.claim(claim)).toEqual([]);
      expect(report.seen).toHaveLength(2);
    },
  },
  {
    title: 'a claim buries only lapsed final attempts of the queues it names',
    run: async ({ driver, clock }) => {
      const [job] = await finalAttempts(driver, ['elsewhere']);
      if (job === undefined) throw new Error('no job');
      await clock.advance(1_000);
      const report = reporter();
      await driver.claim({
        queues: [`${job.queue}-other`],
        workerId: WORKER,
        visibilityTimeoutMs: 1_000,
        onExhausted: report.onExhausted,
      });
      expect(report.seen).toEqual([]);
      expect(await mustGet(driver, job.id)).toStrictEqual(recordOf(job));
    },
  },
  {
    title: 'a final attempt whose lease has not lapsed is neither buried nor handed out',
    run: async ({ driver, clock }) => {
      const [job] = await finalAttempts(driver, ['in-time']);
      if (job === undefined) throw new Error('no job');
      await clock.advance(999);
      const report = reporter();
      expect(
        await driver.claim({
          queues: [job.queue],
          workerId: WORKER,
          visibilityTimeoutMs: 1_000,
          onExhausted: report.onExhausted,
        }),
      ).toEqual([]);
      expect(report.seen).toEqual([]);
      expect(await mustGet(driver, job.id)).toStrictEqual(recordOf(job));
      expect(await driver.ack({ jobId: job.id, workerId: WORKER, claim: job.claim })).toBe(true);
    },
  },
];
