import type { Driver } from '@berth/core';
import { expect } from 'vitest';
import type { CaseContext, KitCase, KitGroup } from '../../kit.js';
import { claimedFence, JOB_ERROR, jobIn, LEASE_MS, pause, WORKER } from '../fixtures/index.js';
import { arrived, QUIET_MS, TIMEOUT_MS } from './arrivals.js';
import { cancelWakeCases } from './wake-cancel.js';
import { settleWakeCases } from './wake-settles.js';

interface Subscribed {
  readonly calls: string[];
  readonly unsubscribe: () => Promise<void>;
}

async function subscribeTo(
  driver: Driver,
  queues: readonly string[],
): Promise<Subscribed | undefined> {
  if (driver.subscribe === undefined) return undefined;
  const calls: string[] = [];
  const unsubscribe = await driver.subscribe(queues, (queue) => {
    calls.push(queue);
  });
  return { calls, unsubscribe };
}

/** What arrived once `count` calls came and then quiet (sorted); the calls are cleared. */
const taken = (subscribed: Subscribed, count: number): Promise<string[]> =>
  arrived(subscribed.calls, count);

async function claimAll(driver: Driver, queues: readonly string[]): Promise<string[]> {
  const claimed = await driver.claim({
    queues,
    limit: 100,
    workerId: WORKER,
    visibilityTimeoutMs: LEASE_MS,
  });
  return claimed.map((job) => job.queue).sort();
}

/**
 * Runs `body` with a subscription to `queues` when the driver offers one; without it the case
 * checks the polling fallback instead: the same work is found by a claim.
 */
function wakeCase(
  title: string,
  queues: readonly string[],
  body: (context: CaseContext, subscribed: Subscribed | undefined) => Promise<void>,
): KitCase {
  return {
    title,
    timeoutMs: TIMEOUT_MS,
    run: async (context) => {
      const subscribed = await subscribeTo(context.driver, queues);
      try {
        await body(context, subscribed);
      } finally {
        await subscribed?.unsubscribe();
      }
    },
  };
}

export const wakeGroup: KitGroup = {
  name: 'wake',
  cases: [
    wakeCase(
      'an enqueue calls onWork for a subscribed queue and never for another (polling: a claim finds it)',
      ['q1', 'q3'],
      async ({ driver }, subscribed) => {
        await driver.enqueue({ name: 'kit.job', queue: 'q2' });
        await driver.enqueue({ name: 'kit.job', queue: 'q1' });
        if (subscribed === undefined) {
          expect(await claimAll(driver, ['q1', 'q2', 'q3'])).toEqual(['q1', 'q2']);
          return;
        }
        expect(await taken(subscribed, 1)).toEqual(['q1']);
        await driver.enqueue({ name: 'kit.job', queue: 'q3' });
        expect(await taken(subscribed, 1)).toEqual(['q3']);
      },
    ),
    wakeCase(
      'an enqueueMany calls onWork once per distinct queue of the batch, not once per row',
      ['q1', 'q2'],
      async ({ driver }, subscribed) => {
        const rows = ['q1', 'q2', 'q1', 'q1', 'q2', 'q3'].map((queue) => ({
          name: 'kit.job',
          queue,
        }));
        await driver.enqueueMany(rows);
        if (subscribed === undefined) {
          expect(await claimAll(driver, ['q1', 'q2'])).toEqual(['q1', 'q1', 'q1', 'q2', 'q2']);
          return;
        }
        expect(await taken(subscribed, 2)).toEqual(['q1', 'q2']);
      },
    ),
    wakeCase(
      'after unsubscribe onWork is never called (polling: a claim still finds the work)',
      ['q1'],
      async ({ driver }, subscribed) => {
        if (subscribed === undefined) {
          await driver.enqueueMany([{ name: 'kit.job', queue: 'q1' }]);
          expect(await claimAll(driver, ['q1'])).toEqual(['q1']);
          return;
        }
        await driver.enqueue({ name: 'kit.job', queue: 'q1' });
        expect(await taken(subscribed, 1)).toEqual(['q1']);
        await subscribed.unsubscribe();
        await driver.enqueue({ name: 'kit.job', queue: 'q1' });
        await driver.enqueueMany([{ name: 'kit.job', queue: 'q1' }]);
        await pause(QUIET_MS * 2);
        expect(subscribed.calls).toEqual([]);
      },
    ),
    wakeCase(
      'a promote, a requeue and a nack back to ready each call onWork once for their queue',
      ['q'],
      async ({ driver }, subscribed) => {
        // Whether a delayed enqueue wakes is not asserted here: it goes first, then two that do.
        const delayed = await jobIn(driver, 'delayed', { queue: 'q' });
        const dead = await jobIn(driver, 'dead', { queue: 'q' });
        const running = await jobIn(driver, 'running', { queue: 'q' });
        if (subscribed !== undefined) await taken(subscribed, 2);
        const fence = claimedFence(running);
        const steps = [
          () => driver.promote(delayed.id),
          () => driver.requeue(dead.id),
          () => driver.nack(fence, { error: JOB_ERROR }),
        ];
        for (const step of steps) {
          await step();
          if (subscribed !== undefined) expect(await taken(subscribed, 1)).toEqual(['q']);
        }
        expect(await claimAll(driver, ['q'])).toEqual(['q', 'q', 'q']);
      },
    ),
    wakeCase(
      'a suspend until now and a publish that wakes a waiter each call onWork; a publish nobody waits for does not',
      ['r'],
      async ({ driver, clock }, subscribed) => {
        const sleeper = await jobIn(driver, 'running', { queue: 'r' });
        const waiter = await jobIn(driver, 'suspended', { queue: 'r' }, { waitFor: 'paid' });
        if (subscribed !== undefined) await taken(subscribed, 2);
        const fence = claimedFence(sleeper);
        await driver.suspend(fence, { until: clock.now() });
        if (subscribed !== undefined) expect(await taken(subscribed, 1)).toEqual(['r']);
        await driver.events.publish('nobody.waits', {});
        if (subscribed !== undefined) expect(await taken(subscribed, 0)).toEqual([]);
        await driver.events.publish('paid', {});
        if (subscribed !== undefined) expect(await taken(subscribed, 1)).toEqual(['r']);
        const claimed = await driver.claim({
          queues: ['r'],
          limit: 10,
          workerId: WORKER,
          visibilityTimeoutMs: LEASE_MS,
        });
        expect(Object.fromEntries(claimed.map((job) => [job.id, job.resumed]))).toEqual({
          [sleeper.id]: true,
          [waiter.id]: true,
        });
      },
    ),
    ...cancelWakeCases,
    ...settleWakeCases,
  ],
};
