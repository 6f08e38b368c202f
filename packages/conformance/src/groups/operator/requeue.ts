import { randomUUID } from 'node:crypto';
import type { Driver, JobState } from '@berth/core';
import { expect } from 'vitest';
import { expectRefusal } from '../../assert.js';
import type { KitCase, KitGroup } from '../../kit.js';
import {
  claimJob,
  expectAbsent,
  fenceOf,
  JOB_ERROR,
  type JobInput,
  jobIn,
  LEASE_MS,
  type MadeJob,
  mustGet,
  stepNames,
  WORKER,
} from '../fixtures/index.js';
import { requeueOverlapCases } from './requeue-overlap.js';
import { requeueRaceCases, requeueStepCases } from './requeue-steps.js';

const REQUEUEABLE: readonly JobState[] = ['failed', 'dead', 'cancelled'];
const REFUSED: readonly JobState[] = ['ready', 'delayed', 'running', 'suspended', 'completed'];
const CLAIMED: ReadonlySet<JobState> = new Set(['running', 'suspended', 'completed']);

/** A job in a requeueable state that carries a lastError (a cancelled one failed an attempt first). */
async function requeueableJob(
  driver: Driver,
  state: JobState,
  request: JobInput = {},
  steps: readonly string[] = [],
): Promise<MadeJob> {
  if (state !== 'cancelled') return jobIn(driver, state, request, { steps });
  const queue = request.queue ?? 'q-cancelled';
  const { id, runId } = await driver.enqueue({ name: 'kit.job', ...request, queue });
  const job = await claimJob(driver, id, queue);
  expect(await driver.nack(fenceOf(job), { error: JOB_ERROR })).toBe(true);
  await driver.cancel(id);
  return { id, runId, queue, fence: fenceOf(job) };
}

const refusedStates = REFUSED.map(
  (state): KitCase => ({
    title: `requeue of a ${state} job answers JOB_NOT_REQUEUEABLE with meta.state ${state} and changes nothing`,
    run: async ({ driver, clock }) => {
      const steps = CLAIMED.has(state) ? ['fetch', 'charge'] : [];
      const made = await jobIn(driver, state, {}, { steps });
      const before = await mustGet(driver, made.id);
      const stepsBefore = await driver.steps.list(made.runId);
      await clock.advance(1_000);
      const error = await expectRefusal(driver.requeue(made.id), 'JOB_NOT_REQUEUEABLE');
      expect(error.meta).toEqual({ jobId: made.id, state });
      await expectRefusal(driver.requeue(made.id, { fromStep: 'fetch' }), 'JOB_NOT_REQUEUEABLE', {
        state,
      });
      expect(await mustGet(driver, made.id)).toEqual(before);
      expect(await driver.steps.list(made.runId)).toEqual(stepsBefore);
      expect(stepsBefore.length).toBe(steps.length);
    },
  }),
);

const requeued = REQUEUEABLE.map(
  (state): KitCase => ({
    title: `requeue of a ${state} job answers it ready now with attempts 0, lastError, claim and runId kept`,
    run: async ({ driver, clock, t0 }) => {
      const made = await requeueableJob(driver, state, { maxAttempts: 5 });
      const before = await mustGet(driver, made.id);
      expect(before.state).toBe(state);
      await clock.advance(2_000);
      const answer = await driver.requeue(made.id);
      const { finishedAt: _f, result: _r, ...kept } = before;
      expect(answer).toStrictEqual({
        ...kept,
        state: 'ready',
        attempts: 0,
        runAt: t0 + 2_000,
        updatedAt: t0 + 2_000,
        lastError: JOB_ERROR,
      });
      expect(answer.runId).toBe(made.runId);
      expect(answer.claim).toBe(1);
      expectAbsent(answer, 'finishedAt', 'result', 'claimedBy', 'visibleAt', 'waitFor');
      expect(await mustGet(driver, made.id)).toEqual(answer);
      const again = await claimJob(driver, made.id, made.queue);
      expect([again.attempts, again.claim, again.runId, again.resumed]).toEqual([
        1,
        2,
        made.runId,
        false,
      ]);
    },
  }),
);

const answers: readonly KitCase[] = [
  {
    title: 'requeue of an id nobody queued answers JOB_NOT_FOUND',
    run: async ({ driver }) => {
      await jobIn(driver, 'dead');
      const id = randomUUID();
      const error = await expectRefusal(driver.requeue(id), 'JOB_NOT_FOUND');
      expect(error.meta).toEqual({ jobId: id });
      await expectRefusal(driver.requeue(id, { fromStep: 'fetch' }), 'JOB_NOT_FOUND', {
        jobId: id,
      });
    },
  },
  {
    title:
      'requeue of a delayed job whose runAt has come answers JOB_NOT_REQUEUEABLE with meta.state ready',
    run: async ({ driver, clock, t0 }) => {
      const { id } = await driver.enqueue({ name: 'kit.job', runAt: t0 + 100 });
      await clock.advance(100);
      await expectRefusal(driver.requeue(id), 'JOB_NOT_REQUEUEABLE', { jobId: id, state: 'ready' });
    },
  },
  {
    title: 'a requeue that simply comes second sees the real state and answers meta.state ready',
    run: async ({ driver, clock }) => {
      const made = await jobIn(driver, 'dead');
      const first = await driver.requeue(made.id);
      await clock.advance(10);
      const error = await expectRefusal(driver.requeue(made.id), 'JOB_NOT_REQUEUEABLE');
      expect(error.meta).toEqual({ jobId: made.id, state: 'ready' });
      expect(await mustGet(driver, made.id)).toEqual(first);
    },
  },
  {
    title:
      'requeue of a job whose idempotency key a live row holds answers JOB_DUPLICATE and changes nothing',
    run: async ({ driver, clock }) => {
      const key = { idempotencyKey: 'order-7', queue: 'orders' };
      const old = await jobIn(driver, 'dead', key, { steps: ['fetch'] });
      const holder = await driver.enqueue({ name: 'kit.job', ...key });
      expect(holder.deduped).toBe(false);
      const before = await mustGet(driver, old.id);
      await clock.advance(10);
      const error = await expectRefusal(driver.requeue(old.id), 'JOB_DUPLICATE');
      expect(error.meta).toEqual({
        name: 'kit.job',
        idempotencyKey: 'order-7',
        existingId: holder.id,
      });
      expect(await mustGet(driver, old.id)).toEqual(before);
      expect(await stepNames(driver, old.runId)).toEqual(['fetch']);
      // Once the holder has settled the key is free again.
      await driver.cancel(holder.id);
      expect((await driver.requeue(old.id)).state).toBe('ready');
    },
  },
  {
    title: 'requeue answers JOB_DUPLICATE before looking at fromStep',
    run: async ({ driver }) => {
      const key = { idempotencyKey: 'order-8' };
      const old = await jobIn(driver, 'failed', key, { steps: ['fetch'] });
      const holder = await driver.enqueue({ name: 'kit.job', ...key });
      await expectRefusal(driver.requeue(old.id, { fromStep: 'no-such-step' }), 'JOB_DUPLICATE', {
        existingId: holder.id,
      });
    },
  },
  {
    title: 'requeue of a live key holder itself answers JOB_NOT_REQUEUEABLE, not JOB_DUPLICATE',
    run: async ({ driver }) => {
      const { id } = await driver.enqueue({ name: 'kit.job', idempotencyKey: 'k-1' });
      await expectRefusal(driver.requeue(id), 'JOB_NOT_REQUEUEABLE', { jobId: id, state: 'ready' });
    },
  },
  {
    title: 'a requeued job holds its idempotency key again: an enqueue of that key answers it',
    run: async ({ driver }) => {
      const key = { idempotencyKey: 'invoice-1', queue: 'billing' };
      const old = await jobIn(driver, 'dead', key);
      const fresh = await driver.enqueue({ name: 'kit.job', ...key });
      expect(fresh.deduped).toBe(false);
      await driver.cancel(fresh.id);
      await driver.requeue(old.id);
      expect(await driver.enqueue({ name: 'kit.job', ...key })).toEqual({
        id: old.id,
        runId: old.runId,
        deduped: true,
      });
      await expectRefusal(
        driver.enqueue({ name: 'kit.job', ...key, onConflict: 'error' }),
        'JOB_DUPLICATE',
        { existingId: old.id, idempotencyKey: 'invoice-1' },
      );
    },
  },
  {
    title:
      'requeue of a job buried by a lapsed lease answers it ready with the LEASE_LAPSED error kept',
    run: async ({ driver, clock, t0 }) => {
      const { id } = await driver.enqueue({ name: 'kit.job', queue: 'q', maxAttempts: 1 });
      await claimJob(driver, id, 'q');
      await clock.advance(LEASE_MS);
      const claim = { queues: ['q'], workerId: WORKER, visibilityTimeoutMs: LEASE_MS };
      expect(await driver.claim(claim)).toEqual([]);
      expect((await mustGet(driver, id)).state).toBe('dead');
      const answer = await driver.requeue(id);
      expect([answer.state, answer.attempts, answer.runAt]).toEqual(['ready', 0, t0 + LEASE_MS]);
      expect(answer.lastError?.code).toBe('LEASE_LAPSED');
      expect((await driver.claim(claim)).map((job) => [job.id, job.attempts])).toEqual([[id, 1]]);
    },
  },
];

export const requeueGroup: KitGroup = {
  name: 'requeue',
  cases: [
    ...answers,
    ...refusedStates,
    ...requeued,
    ...requeueStepCases,
    ...requeueRaceCases,
    ...requeueOverlapCases,
  ],
};
