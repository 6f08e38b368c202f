import { randomUUID } from 'node:crypto';
import type { Driver, JobState } from '@berth/core';
import { expect } from 'vitest';
import { expectRefusal } from '../../assert.js';
import type { KitCase, KitGroup } from '../../kit.js';
import {
  claimedFence,
  claimJob,
  fenceOf,
  jobIn,
  LEASE_MS,
  mustGet,
  WORKER,
} from '../fixtures/index.js';
import { deleteRaceCases } from './delete-race.js';

/** Every state a job can be deleted in; `running` is refused. */
const DELETABLE: readonly JobState[] = [
  'ready',
  'delayed',
  'suspended',
  'completed',
  'failed',
  'dead',
  'cancelled',
];

/** States reached through a claim, so the job wrote steps on the way. */
const CLAIMED = new Set<JobState>(['suspended', 'completed', 'failed', 'dead']);

/** Asserts `id` is gone from every read: get, list, stats and a claim of its queue. */
async function expectGone(driver: Driver, id: string, queue: string): Promise<void> {
  expect(await driver.get(id)).toBeUndefined();
  expect((await driver.list({ limit: 500 })).jobs.map((job) => job.id)).not.toContain(id);
  expect((await driver.stats()).map((entry) => entry.queue)).not.toContain(queue);
  expect(
    await driver.claim({ queues: [queue], workerId: 'late', visibilityTimeoutMs: LEASE_MS }),
  ).toEqual([]);
}

const deleteEach = DELETABLE.map(
  (state): KitCase => ({
    title: `delete of a ${state} job answers its record as it stood and removes it, its steps and every list, stats and claim entry`,
    run: async ({ driver, clock }) => {
      const steps = CLAIMED.has(state) ? ['fetch', 'send'] : [];
      const made = await jobIn(driver, state, {}, { steps, waitFor: 'order.paid' });
      const kept = await jobIn(driver, 'ready', { queue: 'kept' });
      const before = await mustGet(driver, made.id);
      await clock.advance(1_000);
      const answer = await driver.delete(made.id);
      expect(answer).toStrictEqual(before);
      await expectGone(driver, made.id, made.queue);
      expect(await driver.steps.list(made.runId)).toEqual([]);
      expect((await mustGet(driver, kept.id)).state).toBe('ready');
    },
  }),
);

export const deleteCases: readonly KitCase[] = [
  ...deleteEach,
  {
    title:
      "delete removes the job's attempt history and log lines with it: attempts.list answers undefined and logs.list JOB_NOT_FOUND",
    run: async ({ driver, clock }) => {
      const { id } = await driver.enqueue({ name: 'kit.job', queue: 'q-history', maxAttempts: 2 });
      const fence = fenceOf(await claimJob(driver, id, 'q-history'));
      const at = clock.now();
      const lines = [{ at, level: 'info' as const, message: 'before the failure' }];
      expect(await driver.logs.append(fence, { from: 0, lines })).toBe(true);
      expect(await driver.nack(fence, { error: { message: 'boom' }, final: true })).toBe(true);
      expect((await driver.attempts.list(id))?.records.map((r) => r.outcome)).toEqual(['failed']);
      expect((await driver.logs.list(id)).lines.map((line) => line.message)).toEqual([
        'before the failure',
      ]);
      await driver.delete(id);
      expect(await driver.attempts.list(id)).toBeUndefined();
      await expectRefusal(driver.logs.list(id), 'JOB_NOT_FOUND');
    },
  },
  {
    title:
      'delete of a running job answers JOB_NOT_DELETABLE with meta.state running and changes nothing: the worker still acks it',
    run: async ({ driver, clock }) => {
      const made = await jobIn(driver, 'running', {}, { steps: ['fetch'] });
      const before = await mustGet(driver, made.id);
      await clock.advance(10);
      const error = await expectRefusal(driver.delete(made.id), 'JOB_NOT_DELETABLE');
      expect(error.meta).toEqual({ jobId: made.id, state: 'running' });
      expect(error.fix).toContain('cancel');
      expect(await mustGet(driver, made.id)).toEqual(before);
      expect((await driver.steps.list(made.runId)).map((step) => step.name)).toEqual(['fetch']);
      expect(await driver.ack(claimedFence(made), { result: 1 })).toBe(true);
    },
  },
  {
    title:
      'delete of a running job whose lease lapsed answers JOB_NOT_DELETABLE: a worker may still hold it',
    run: async ({ driver, clock }) => {
      const made = await jobIn(driver, 'running');
      await clock.advance(LEASE_MS + 1);
      await expectRefusal(driver.delete(made.id), 'JOB_NOT_DELETABLE', {
        jobId: made.id,
        state: 'running',
      });
      expect((await mustGet(driver, made.id)).state).toBe('running');
    },
  },
  {
    title: 'a running job cancelled first can then be deleted',
    run: async ({ driver }) => {
      const made = await jobIn(driver, 'running');
      await driver.cancel(made.id);
      expect((await driver.delete(made.id)).state).toBe('cancelled');
      expect(await driver.get(made.id)).toBeUndefined();
    },
  },
  {
    title: 'delete of an id nobody queued answers JOB_NOT_FOUND with meta.jobId',
    run: async ({ driver }) => {
      const id = randomUUID();
      await expectRefusal(driver.delete(id), 'JOB_NOT_FOUND', { jobId: id });
    },
  },
  {
    title:
      'a delete retried after it landed (its answer lost) answers JOB_NOT_FOUND, and deletes nothing else',
    run: async ({ driver }) => {
      const made = await jobIn(driver, 'dead');
      const other = await jobIn(driver, 'dead');
      await driver.delete(made.id);
      await expectRefusal(driver.delete(made.id), 'JOB_NOT_FOUND', { jobId: made.id });
      expect((await mustGet(driver, other.id)).state).toBe('dead');
    },
  },
  {
    title:
      "delete naming another tenant (or a tenant, of a job with none) answers JOB_NOT_FOUND and leaves the row; its own tenant's delete removes it",
    run: async ({ driver }) => {
      const acme = await driver.enqueue({ name: 'kit.job', tenantId: 'acme' });
      const none = await driver.enqueue({ name: 'kit.job' });
      await expectRefusal(driver.delete(acme.id, { tenantId: 'globex' }), 'JOB_NOT_FOUND', {
        jobId: acme.id,
      });
      await expectRefusal(driver.delete(none.id, { tenantId: 'globex' }), 'JOB_NOT_FOUND');
      expect((await mustGet(driver, acme.id)).state).toBe('ready');
      expect((await mustGet(driver, none.id)).state).toBe('ready');
      const answer = await driver.delete(acme.id, { tenantId: 'acme' });
      expect([answer.id, answer.tenantId]).toEqual([acme.id, 'acme']);
      expect(await driver.get(acme.id)).toBeUndefined();
    },
  },
  {
    title:
      'deleting the live holder of an idempotency key frees it: the same key enqueues a new job, not a dedupe',
    run: async ({ driver }) => {
      const key = { name: 'kit.job', idempotencyKey: 'order-7', tenantId: 'acme' };
      for (const state of ['ready', 'delayed', 'suspended'] as const) {
        const made = await jobIn(driver, state, key);
        await driver.delete(made.id);
        const again = await driver.enqueue({ ...key, onConflict: 'error' });
        expect(again.deduped).toBe(false);
        expect(again.id).not.toBe(made.id);
        expect(await driver.enqueue(key)).toEqual({ ...again, deduped: true });
        await driver.cancel(again.id);
        await driver.delete(again.id);
      }
    },
  },
  {
    title: 'a deleted id can be enqueued again as the caller id of a new job',
    run: async ({ driver }) => {
      const id = randomUUID();
      const first = await driver.enqueue({ name: 'kit.job', id });
      await driver.delete(id);
      const second = await driver.enqueue({ name: 'kit.job', id });
      expect([second.id, second.deduped]).toEqual([id, false]);
      expect(second.runId).not.toBe(first.runId);
    },
  },
  {
    title:
      'a deleted job waiting for an event is no waiter: publishing the event wakes nothing, the sibling waiter resumes',
    run: async ({ driver }) => {
      const gone = await jobIn(driver, 'suspended', { queue: 'w' }, { waitFor: 'order.paid' });
      const stays = await jobIn(driver, 'suspended', { queue: 'w' }, { waitFor: 'order.paid' });
      await driver.delete(gone.id);
      await driver.events.publish('order.paid', { order: 7 });
      const claimed = await driver.claim({
        queues: ['w'],
        workerId: WORKER,
        visibilityTimeoutMs: LEASE_MS,
        limit: 10,
      });
      expect(claimed.map((job) => job.id)).toEqual([stays.id]);
    },
  },
  {
    title:
      "a delete landing inside requeue's seam (between its checks and its change) leaves the requeue JOB_NOT_FOUND, and no row behind",
    run: async ({ driver, hooks }) => {
      const made = await jobIn(driver, 'dead', { idempotencyKey: 'k-seam' });
      let deleted: unknown;
      hooks.afterRequeueCheck = async () => {
        hooks.afterRequeueCheck = undefined;
        deleted = await driver.delete(made.id);
      };
      await expectRefusal(driver.requeue(made.id), 'JOB_NOT_FOUND', { jobId: made.id });
      expect(deleted).toMatchObject({ id: made.id, state: 'dead' });
      expect(await driver.get(made.id)).toBeUndefined();
      const fresh = await driver.enqueue({ name: 'kit.job', idempotencyKey: 'k-seam' });
      expect(fresh.deduped).toBe(false);
    },
  },
  {
    title: 'delete of an id that is not a uuid answers JOB_INVALID naming field id',
    run: async ({ driver }) => {
      await expectRefusal(driver.delete('job-1'), 'JOB_INVALID', { field: 'id' });
    },
  },
];

export const deleteGroup: KitGroup = {
  name: 'delete',
  cases: [...deleteCases, ...deleteRaceCases],
};
