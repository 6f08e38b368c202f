import type { JobState } from '@berth/core';
import { expect } from 'vitest';
import { expectRefusal } from '../../assert.js';
import type { KitCase } from '../../kit.js';
import {
  claimedFence,
  expectAbsent,
  JOB_ERROR,
  jobIn,
  LEASE_MS,
  mustGet,
  stepOf,
  WORKER,
} from '../fixtures/index.js';

const LIVE: readonly JobState[] = ['ready', 'delayed', 'running', 'suspended'];
const TERMINAL: readonly JobState[] = ['completed', 'failed', 'dead', 'cancelled'];

const cancelLive = LIVE.map(
  (state): KitCase => ({
    title: `cancel of a ${state} job answers it cancelled with finishedAt now and no lease or wait`,
    run: async ({ driver, clock, t0 }) => {
      const made = await jobIn(driver, state, {}, { waitFor: 'order.paid' });
      const before = await mustGet(driver, made.id);
      await clock.advance(1_000);
      const answer = await driver.cancel(made.id);
      expect(answer).toStrictEqual({
        ...clearedBy(before),
        state: 'cancelled',
        finishedAt: t0 + 1_000,
        updatedAt: t0 + 1_000,
      });
      expectAbsent(answer, 'claimedBy', 'visibleAt', 'waitFor');
      expect(await mustGet(driver, made.id)).toEqual(answer);
      const claimed = await driver.claim({
        queues: [made.queue],
        workerId: 'other',
        visibilityTimeoutMs: LEASE_MS,
      });
      expect(claimed).toEqual([]);
    },
  }),
);

/** The record `before` less the fields a cancel removes. */
function clearedBy(before: object): object {
  const { claimedBy: _c, visibleAt: _v, waitFor: _w, ...rest } = before as Record<string, unknown>;
  return rest;
}

const cancelTerminal = TERMINAL.map(
  (state): KitCase => ({
    title: `cancel of a ${state} job answers JOB_NOT_CANCELLABLE with meta.state ${state} and changes nothing`,
    run: async ({ driver, clock }) => {
      const made = await jobIn(driver, state);
      const before = await mustGet(driver, made.id);
      await clock.advance(1_000);
      const error = await expectRefusal(driver.cancel(made.id), 'JOB_NOT_CANCELLABLE');
      expect(error.meta).toEqual({ jobId: made.id, state });
      expect(await mustGet(driver, made.id)).toEqual(before);
    },
  }),
);

export const cancelCases: readonly KitCase[] = [
  ...cancelLive,
  ...cancelTerminal,
  {
    title: 'cancel of a delayed job whose runAt has come cancels it',
    run: async ({ driver, clock, t0 }) => {
      const { id } = await driver.enqueue({ name: 'kit.job', runAt: t0 + 100 });
      await clock.advance(200);
      const answer = await driver.cancel(id);
      expect(answer.state).toBe('cancelled');
      expect(answer.finishedAt).toBe(t0 + 200);
      expect(answer.runAt).toBe(t0 + 100);
    },
  },
  {
    title: 'a cancelled running job lands none of its settles, extends or step writes',
    run: async ({ driver, clock, t0 }) => {
      const made = await jobIn(driver, 'running');
      const fence = claimedFence(made);
      await clock.advance(10);
      const cancelled = await driver.cancel(made.id);
      await clock.advance(10);
      expect(await driver.ack(fence, { result: { late: true } })).toBe(false);
      expect(await driver.nack(fence, { error: JOB_ERROR })).toBe(false);
      expect(await driver.suspend(fence, { until: t0 + 60_000 })).toBe(false);
      expect(await driver.extend(fence, LEASE_MS)).toBe(false);
      expect(await driver.ackMany([{ fence }])).toEqual([false]);
      expect(await driver.nackMany([{ fence, error: JOB_ERROR }])).toEqual([false]);
      await expectRefusal(driver.steps.put(stepOf(made.runId, 'late', t0), fence), 'LEASE_LOST', {
        jobId: made.id,
        workerId: WORKER,
        claim: 1,
      });
      const after = await mustGet(driver, made.id);
      expect(after).toEqual(cancelled);
      expect(after.finishedAt).toBe(t0 + 10);
      expectAbsent(after, 'result', 'lastError');
      expect(await driver.steps.list(made.runId)).toEqual([]);
    },
  },
  {
    title:
      'a second cancel of a cancelled job answers JOB_NOT_CANCELLABLE with meta.state cancelled',
    run: async ({ driver, clock, t0 }) => {
      const { id } = await driver.enqueue({ name: 'kit.job' });
      await driver.cancel(id);
      await clock.advance(50);
      await expectRefusal(driver.cancel(id), 'JOB_NOT_CANCELLABLE', {
        jobId: id,
        state: 'cancelled',
      });
      expect((await mustGet(driver, id)).finishedAt).toBe(t0);
    },
  },
];
