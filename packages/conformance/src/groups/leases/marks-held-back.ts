import { randomUUID } from 'node:crypto';
import type { Driver, MarkedEnqueueRequest } from '@berth/core';
import { expect } from 'vitest';
import type { CaseContext, KitCase } from '../../kit.js';

const QUEUE = 'cron';

/** A slot's enqueue as the scheduler sends it: its id, optionally its key, and its mark. */
const slot = (mark: string, value: number, keyed: boolean): MarkedEnqueueRequest => ({
  id: randomUUID(),
  name: 'nightly',
  queue: QUEUE,
  ...(keyed ? { idempotencyKey: `${mark}:${value}` } : {}),
  advanceMark: { name: mark, value },
});

/** Runs the one job of QUEUE on `driver` and purges it, as a worker and retention would. */
async function runAndPurge(driver: Driver, id: string, olderThan: number): Promise<void> {
  const [job] = await driver.claim({ queues: [QUEUE], workerId: 'w', visibilityTimeoutMs: 60_000 });
  expect(job?.id).toBe(id);
  expect(await driver.ack({ jobId: id, workerId: 'w', claim: job?.claim ?? 0 })).toBe(true);
  expect(await driver.purge({ states: ['completed'], olderThan, ids: [id] })).toBe(1);
}

/**
 * Holds the next enqueue with `advanceMark` at its seam (between what it decides from and its
 * change) while `meanwhile` runs on another process of the same store; answers how often the
 * seam held. The sibling shares the seams, so only the first call is held.
 */
async function heldBack(
  context: CaseContext,
  request: MarkedEnqueueRequest,
  meanwhile: (other: Driver) => Promise<void>,
) {
  const other = await context.sibling();
  let held = 0;
  context.hooks.beforeMarkedEnqueue = async () => {
    context.hooks.beforeMarkedEnqueue = undefined;
    held += 1;
    await meanwhile(other);
  };
  const answer = await context.driver.enqueue(request);
  return { answer, held };
}

/** Nothing of the slot is left to run: no row under the id, none in the queue, none claimable. */
async function nothingLeft(driver: Driver, id: string): Promise<void> {
  expect(await driver.get(id)).toBeUndefined();
  expect((await driver.list({ queue: QUEUE })).jobs).toEqual([]);
  const claimed = await driver.claim({ queues: [QUEUE], workerId: 'w2', visibilityTimeoutMs: 1 });
  expect(claimed).toEqual([]);
}

/**
 * An enqueue with `advanceMark` decides from the mark and writes in ONE atomic change, so a call
 * held back between the two (a slow or paused leader) decides again from what stands when it
 * writes: a slot another process enqueued meanwhile, even one that ran and was purged, is
 * passed, never made a second time. The `beforeMarkedEnqueue` seam holds it there.
 */
export const marksHeldBackCases: readonly KitCase[] = [
  {
    title:
      'an enqueue with advanceMark held back while another process enqueues the slot, runs it and purges it answers markPassed and makes no second job, with or without a key',
    timeoutMs: 30_000,
    run: async (context) => {
      const { driver, clock, t0 } = context;
      for (const keyed of [false, true]) {
        const mark = keyed ? 'schedule:keyed' : 'schedule:plain';
        const request = slot(mark, t0, keyed);
        const id = request.id as string;
        const { answer, held } = await heldBack(context, request, async (other) => {
          expect(await other.enqueue(request)).toMatchObject({ id, deduped: false });
          await runAndPurge(other, id, clock.now() + 1);
        });
        expect(held).toBe(1);
        expect(answer, keyed ? 'keyed' : 'plain').toEqual({ markPassed: true });
        await nothingLeft(driver, id);
        expect(await driver.marks.get(mark)).toBe(t0);
        expect(await driver.enqueue(request)).toEqual({ markPassed: true });
        await nothingLeft(driver, id);
      }
    },
  },
  {
    title:
      'an enqueue with advanceMark held back while another process enqueues the same slot answers markPassed, and the slot has one job',
    timeoutMs: 30_000,
    run: async (context) => {
      const { driver, t0 } = context;
      const request = slot('schedule:live', t0, true);
      const id = request.id as string;
      const { answer, held } = await heldBack(context, request, async (other) => {
        expect(await other.enqueue(request)).toMatchObject({ id, deduped: false });
      });
      expect(held).toBe(1);
      expect(answer).toEqual({ markPassed: true });
      const { jobs } = await driver.list({ queue: QUEUE });
      expect(jobs.map((job) => job.id)).toEqual([id]);
      expect(await driver.marks.get('schedule:live')).toBe(t0);
    },
  },
  {
    title:
      'an enqueue with advanceMark held back while another process enqueues a later slot answers markPassed and makes no job for the earlier slot',
    timeoutMs: 30_000,
    run: async (context) => {
      const { driver, t0 } = context;
      const early = slot('schedule:later', t0, true);
      const late = slot('schedule:later', t0 + 60_000, true);
      const { answer, held } = await heldBack(context, early, async (other) => {
        expect(await other.enqueue(late)).toMatchObject({ id: late.id, deduped: false });
      });
      expect(held).toBe(1);
      expect(answer).toEqual({ markPassed: true });
      expect(await driver.get(early.id as string)).toBeUndefined();
      const { jobs } = await driver.list({ queue: QUEUE });
      expect(jobs.map((job) => job.id)).toEqual([late.id]);
      expect(await driver.marks.get('schedule:later')).toBe(t0 + 60_000);
    },
  },
];
