import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { expectRefusal } from '../../assert.js';
import type { KitCase } from '../../kit.js';
import { claimJob, fenceOf, jobIn, mustGet, stepNames, stepOf } from '../fixtures/index.js';

export const requeueStepCases: readonly KitCase[] = [
  {
    title:
      'requeue fromStep drops that step and every step written after it, and keeps earlier ones',
    run: async ({ driver, t0 }) => {
      const { id, runId } = await driver.enqueue({ name: 'kit.job', queue: 'q' });
      const fence = fenceOf(await claimJob(driver, id, 'q'));
      for (const name of ['fetch', 'charge', 'ship', 'mail']) {
        await driver.steps.put(stepOf(runId, name, t0), fence);
      }
      // A later put of an early step updates it in place: it stays first in write order.
      await driver.steps.put(stepOf(runId, 'fetch', t0, 2), fence);
      await driver.nack(fence, { error: { message: 'ship failed' }, final: true });
      await driver.requeue(id, { fromStep: 'charge' });
      const kept = await driver.steps.list(runId);
      expect(kept).toEqual([stepOf(runId, 'fetch', t0, 2)]);
      for (const name of ['charge', 'ship', 'mail']) {
        expect(await driver.steps.get(runId, name)).toBeUndefined();
      }
    },
  },
  {
    title: 'requeue fromStep of the first step drops every step; of the last step only that one',
    run: async ({ driver }) => {
      const first = await jobIn(driver, 'dead', { queue: 'a' }, { steps: ['s1', 's2', 's3'] });
      const last = await jobIn(driver, 'failed', { queue: 'b' }, { steps: ['s1', 's2', 's3'] });
      await driver.requeue(first.id, { fromStep: 's1' });
      await driver.requeue(last.id, { fromStep: 's3' });
      expect(await driver.steps.list(first.runId)).toEqual([]);
      expect(await stepNames(driver, last.runId)).toEqual(['s1', 's2']);
    },
  },
  {
    title: 'requeue without fromStep keeps every step of the run',
    run: async ({ driver }) => {
      const made = await jobIn(driver, 'dead', {}, { steps: ['fetch', 'charge'] });
      const before = await driver.steps.list(made.runId);
      await driver.requeue(made.id);
      expect(await driver.steps.list(made.runId)).toEqual(before);
      expect(before.length).toBe(2);
    },
  },
  {
    title:
      'steps written again after a requeue fromStep are listed after the kept ones, in their new order',
    run: async ({ driver, clock, t0 }) => {
      const made = await jobIn(driver, 'dead', { queue: 'q' }, { steps: ['a', 'b', 'c'] });
      await driver.requeue(made.id, { fromStep: 'b' });
      await clock.advance(10);
      const fence = fenceOf(await claimJob(driver, made.id, 'q'));
      await driver.steps.put(stepOf(made.runId, 'c', t0 + 10), fence);
      await driver.steps.put(stepOf(made.runId, 'b', t0 + 10), fence);
      expect(await stepNames(driver, made.runId)).toEqual(['a', 'c', 'b']);
    },
  },
  {
    title: 'requeue fromStep naming no step of the run answers STEP_INVALID and changes nothing',
    run: async ({ driver, clock }) => {
      const made = await jobIn(driver, 'dead', { queue: 'a' }, { steps: ['fetch', 'charge'] });
      // A step of that name in ANOTHER run does not count.
      await jobIn(driver, 'dead', { queue: 'b' }, { steps: ['ship'] });
      const before = await mustGet(driver, made.id);
      const stepsBefore = await driver.steps.list(made.runId);
      await clock.advance(10);
      for (const step of ['ship', 'Fetch']) {
        const error = await expectRefusal(
          driver.requeue(made.id, { fromStep: step }),
          'STEP_INVALID',
        );
        expect(error.meta).toEqual({ jobId: made.id, runId: made.runId, step });
      }
      expect(await mustGet(driver, made.id)).toEqual(before);
      expect(await driver.steps.list(made.runId)).toEqual(stepsBefore);
    },
  },
  {
    title: 'requeue fromStep of a run that wrote no step answers STEP_INVALID',
    run: async ({ driver }) => {
      const made = await jobIn(driver, 'cancelled');
      await expectRefusal(driver.requeue(made.id, { fromStep: 'fetch' }), 'STEP_INVALID', {
        jobId: made.id,
        runId: made.runId,
        step: 'fetch',
      });
      expect((await mustGet(driver, made.id)).state).toBe('cancelled');
    },
  },
];

export const requeueRaceCases: readonly KitCase[] = [
  {
    title:
      'a requeue that loses its race to another requeue answers JOB_NOT_REQUEUEABLE with meta.state live, and exactly one requeue lands',
    run: async ({ driver, clock, hooks, t0 }) => {
      const made = await jobIn(driver, 'dead', {}, { steps: ['fetch', 'charge'] });
      await clock.advance(100);
      let calls = 0;
      let inner: unknown;
      hooks.afterRequeueCheck = async () => {
        calls += 1;
        if (calls > 1) return;
        await clock.advance(5);
        inner = await driver.requeue(made.id);
      };
      const error = await expectRefusal(
        driver.requeue(made.id, { fromStep: 'fetch' }),
        'JOB_NOT_REQUEUEABLE',
      );
      expect(error.meta).toEqual({ jobId: made.id, state: 'live' });
      expect(calls).toBe(2);
      const after = await mustGet(driver, made.id);
      expect(after).toEqual(inner);
      expect([after.state, after.attempts, after.runAt]).toEqual(['ready', 0, t0 + 105]);
      // The losing call asked for fromStep: had it landed too, the steps would be gone.
      expect(await stepNames(driver, made.runId)).toEqual(['fetch', 'charge']);
    },
  },
  {
    title:
      'a requeue whose row was requeued and claimed during its check answers meta.state live and leaves the claim',
    run: async ({ driver, hooks }) => {
      const made = await jobIn(driver, 'failed', { queue: 'q' });
      hooks.afterRequeueCheck = async () => {
        hooks.afterRequeueCheck = undefined;
        await driver.requeue(made.id);
        await claimJob(driver, made.id, 'q');
      };
      await expectRefusal(driver.requeue(made.id), 'JOB_NOT_REQUEUEABLE', {
        jobId: made.id,
        state: 'live',
      });
      const after = await mustGet(driver, made.id);
      expect([after.state, after.attempts, after.claim]).toEqual(['running', 1, 2]);
    },
  },
  {
    title:
      'requeue calls afterRequeueCheck once after its checks pass, and never for a refused requeue',
    run: async ({ driver, hooks }) => {
      let calls = 0;
      hooks.afterRequeueCheck = async () => {
        calls += 1;
      };
      const live = await jobIn(driver, 'ready');
      const dead = await jobIn(driver, 'dead', {}, { steps: ['fetch'] });
      await expectRefusal(driver.requeue(randomUUID()), 'JOB_NOT_FOUND');
      await expectRefusal(driver.requeue(live.id), 'JOB_NOT_REQUEUEABLE');
      await expectRefusal(driver.requeue(dead.id, { fromStep: 'nope' }), 'STEP_INVALID');
      expect(calls).toBe(0);
      expect((await driver.requeue(dead.id, { fromStep: 'fetch' })).state).toBe('ready');
      expect(calls).toBe(1);
      expect(await driver.steps.list(dead.runId)).toEqual([]);
    },
  },
];
