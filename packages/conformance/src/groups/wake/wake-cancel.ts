import type { Driver } from '@berth/core';
import { expect } from 'vitest';
import type { KitCase } from '../../kit.js';
import { claimedFence, jobIn, LEASE_MS, pause } from '../fixtures/index.js';
import { arrived, QUIET_MS, TIMEOUT_MS } from './arrivals.js';

interface CancelSubscription {
  readonly cancelled: string[];
  /** Idempotent here: a case may stop listening before its clean-up does. */
  readonly unsubscribe: () => Promise<void>;
}

async function hearCancels(
  driver: Driver,
  queues: readonly string[],
): Promise<CancelSubscription | undefined> {
  if (driver.subscribe === undefined) return undefined;
  const cancelled: string[] = [];
  const stop = await driver.subscribe(
    queues,
    () => {},
    (jobId) => {
      cancelled.push(jobId);
    },
  );
  let stopping: Promise<void> | undefined;
  const unsubscribe = () => {
    stopping ??= stop();
    return stopping;
  };
  return { cancelled, unsubscribe };
}

/** What arrived once `count` notices came and then quiet (sorted); the notices are cleared. */
const heard = (subscription: CancelSubscription, count: number): Promise<string[]> =>
  arrived(subscription.cancelled, count);

/**
 * Cancels of running jobs heard through `subscribe`'s `onCancelled` (contract: driver.ts,
 * DriverBackend.subscribe). Without `subscribe` a worker finds a cancel by its lease renewal:
 * each case then checks that the renewal is refused.
 */
export const cancelWakeCases: readonly KitCase[] = [
  {
    title:
      'a cancel of a running job calls onCancelled with its id for a subscribed queue; one of another queue, and one of a ready, delayed or suspended job, call nothing',
    timeoutMs: TIMEOUT_MS,
    run: async ({ driver }) => {
      const subscription = await hearCancels(driver, [
        'c-running',
        'c-ready',
        'c-delayed',
        'c-suspended',
      ]);
      try {
        // Each in a subscribed queue of its own: making a running or suspended job claims.
        const running = await jobIn(driver, 'running', { queue: 'c-running' });
        const elsewhere = await jobIn(driver, 'running', { queue: 'c-other' });
        const others = await Promise.all(
          (['ready', 'delayed', 'suspended'] as const).map((state) =>
            jobIn(driver, state, { queue: `c-${state}` }),
          ),
        );
        for (const job of [running, elsewhere, ...others]) await driver.cancel(job.id);
        if (subscription === undefined) {
          expect(await driver.extend(claimedFence(running), LEASE_MS)).toBe(false);
          return;
        }
        expect(await heard(subscription, 1)).toEqual([running.id]);
      } finally {
        await subscription?.unsubscribe();
      }
    },
  },
  {
    title:
      "a cancel made through another instance over the same store reaches this instance's onCancelled; after unsubscribe nothing does",
    timeoutMs: TIMEOUT_MS,
    run: async ({ driver, sibling }) => {
      const other = await sibling();
      const subscription = await hearCancels(driver, ['c']);
      try {
        const first = await jobIn(driver, 'running', { queue: 'c' });
        const second = await jobIn(driver, 'running', { queue: 'c' });
        await other.cancel(first.id);
        if (subscription === undefined) {
          expect(await driver.extend(claimedFence(first), LEASE_MS)).toBe(false);
          return;
        }
        expect(await heard(subscription, 1)).toEqual([first.id]);
        await subscription.unsubscribe();
        await other.cancel(second.id);
        await pause(QUIET_MS * 2);
        expect(subscription.cancelled).toEqual([]);
      } finally {
        await subscription?.unsubscribe();
      }
    },
  },
];
