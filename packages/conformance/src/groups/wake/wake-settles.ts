import type { Driver, JobState } from '@berth/core';
import { expect } from 'vitest';
import type { KitCase } from '../../kit.js';
import {
  claimExactly,
  claimedFence,
  fenceOf,
  freshQueue,
  JOB_ERROR,
  jobIn,
  mustGet,
  pause,
  WORKER,
} from '../fixtures/index.js';
import { arrived, QUIET_MS, TIMEOUT_MS } from './arrivals.js';

interface SettleWatch {
  readonly settled: string[];
  /** Idempotent here: a case may stop listening before its clean-up does. */
  readonly unwatch: () => Promise<void>;
}

async function watchSettles(driver: Driver): Promise<SettleWatch | undefined> {
  if (driver.watchSettles === undefined) return undefined;
  const settled: string[] = [];
  const stop = await driver.watchSettles((jobIds) => {
    settled.push(...jobIds);
  });
  let stopping: Promise<void> | undefined;
  return { settled, unwatch: () => (stopping ??= stop()) };
}

/** Without `watchSettles` a wait finds a settle by reading the row: each case checks that. */
async function expectStates(
  driver: Driver,
  expected: Readonly<Record<string, JobState>>,
): Promise<void> {
  const read = await Promise.all(Object.keys(expected).map((id) => mustGet(driver, id)));
  expect(Object.fromEntries(read.map((record) => [record.id, record.state]))).toEqual(expected);
}

/**
 * Settle notices through `watchSettles` (contract: driver.ts, DriverBackend.watchSettles): the
 * hint a result wait in any process wakes on.
 */
export const settleWakeCases: readonly KitCase[] = [
  {
    title:
      'watchSettles hears each job an ack, a final nack, a nack past its attempts, a nack with cancel and a cancel of a ready, delayed, suspended or running job settled; never a nack that sent its job back to work',
    timeoutMs: TIMEOUT_MS,
    run: async ({ driver }) => {
      const watch = await watchSettles(driver);
      try {
        const acked = await jobIn(driver, 'running', { queue: freshQueue() });
        const final = await jobIn(driver, 'running', { queue: freshQueue() });
        const spent = await jobIn(driver, 'running', { queue: freshQueue(), maxAttempts: 1 });
        const withCancel = await jobIn(driver, 'running', { queue: freshQueue() });
        const retried = await jobIn(driver, 'running', { queue: freshQueue(), maxAttempts: 3 });
        const cancels = await Promise.all(
          (['ready', 'delayed', 'suspended', 'running'] as const).map((state) =>
            jobIn(driver, state, { queue: freshQueue() }),
          ),
        );
        expect(await driver.ack(claimedFence(acked), { result: 1 })).toBe(true);
        const error = { error: JOB_ERROR };
        expect(await driver.nack(claimedFence(final), { ...error, final: true })).toBe(true);
        expect(await driver.nack(claimedFence(spent), error)).toBe(true);
        expect(await driver.nack(claimedFence(withCancel), { ...error, cancel: true })).toBe(true);
        expect(await driver.nack(claimedFence(retried), error)).toBe(true);
        for (const job of cancels) await driver.cancel(job.id);
        const settledIds = [acked, final, spent, withCancel, ...cancels].map((job) => job.id);
        if (watch === undefined) {
          await expectStates(driver, {
            [acked.id]: 'completed',
            [final.id]: 'dead',
            [spent.id]: 'dead',
            [withCancel.id]: 'cancelled',
            [retried.id]: 'ready',
          });
          return;
        }
        expect(await arrived(watch.settled, settledIds.length)).toEqual(settledIds.sort());
      } finally {
        await watch?.unwatch();
      }
    },
  },
  {
    title:
      'watchSettles hears each job of an ackMany and a nackMany once, and a claim that buries a lapsed final attempt; a refused settle is never heard',
    timeoutMs: TIMEOUT_MS,
    run: async ({ driver, clock }) => {
      const watch = await watchSettles(driver);
      try {
        // One after another: each claim on the way must take its own job.
        const batch = [];
        for (const _ of [1, 2, 3, 4]) {
          batch.push(await jobIn(driver, 'running', { queue: freshQueue(), maxAttempts: 1 }));
        }
        const [a, b, c, d] = batch.map(claimedFence);
        if (a === undefined || b === undefined || c === undefined || d === undefined) {
          throw new Error('four jobs were made');
        }
        expect(await driver.ackMany([{ fence: a }, { fence: b }])).toEqual([true, true]);
        expect(await driver.nackMany([{ fence: c, error: JOB_ERROR }])).toEqual([true]);
        // Settled already: these land nothing and tell nothing.
        expect(await driver.ack(a)).toBe(false);
        expect(await driver.nack(c, { error: JOB_ERROR })).toBe(false);
        const lapsing = freshQueue();
        const { id: lapsed } = await driver.enqueue({
          name: 'kit.job',
          queue: lapsing,
          maxAttempts: 1,
        });
        await claimExactly(driver, lapsing, lapsed, WORKER, 1_000);
        await clock.advance(1_000);
        const claim = { queues: [lapsing], workerId: 'w-2', visibilityTimeoutMs: 1_000 };
        expect(await driver.claim(claim)).toEqual([]);
        const expected = [a.jobId, b.jobId, c.jobId, lapsed].sort();
        if (watch === undefined) {
          await expectStates(driver, {
            [a.jobId]: 'completed',
            [c.jobId]: 'dead',
            [d.jobId]: 'running',
            [lapsed]: 'dead',
          });
          return;
        }
        expect(await arrived(watch.settled, expected.length)).toEqual(expected);
      } finally {
        await watch?.unwatch();
      }
    },
  },
  {
    title:
      "settles made through another instance over the same store reach this instance's watchSettles; after it stops nothing does",
    timeoutMs: TIMEOUT_MS,
    run: async ({ driver, sibling }) => {
      const other = await sibling();
      const watch = await watchSettles(driver);
      try {
        const queue = freshQueue();
        const first = await jobIn(other, 'running', { queue });
        const second = await jobIn(other, 'ready', { queue });
        expect(await other.ack(claimedFence(first))).toBe(true);
        if (watch === undefined) {
          await expectStates(driver, { [first.id]: 'completed' });
          return;
        }
        expect(await arrived(watch.settled, 1)).toEqual([first.id]);
        await watch.unwatch();
        const claimed = await claimExactly(other, queue, second.id, WORKER);
        expect(await other.ack(fenceOf(claimed))).toBe(true);
        await pause(QUIET_MS * 2);
        expect(watch.settled).toEqual([]);
      } finally {
        await watch?.unwatch();
      }
    },
  },
];
