import { createManualClock, type Driver } from '@berth/core';
import { expect } from 'vitest';
import type { KitCase } from '../../kit.js';
import { fleet, settleAll } from '../concurrency/concurrency-support.js';
import { eventually, LEASE_MS } from '../fixtures/index.js';

/** Pause, claim, resume rounds of the fleet-wide case: each one a fresh chance to see a stale claim. */
const TRIALS = 20;

const claimOne = (driver: Driver, queue: string, workerId: string) =>
  driver.claim({ queues: [queue], limit: 1, workerId, visibilityTimeoutMs: LEASE_MS });

/** Pauses as separate processes see them: one instance's answered call holds for all. */
export const pauseFleetCases: readonly KitCase[] = [
  {
    title:
      "a pause one driver instance answered stops every sibling's claims at once, and a resume on a sibling makes the queue claimable again on the first",
    timeoutMs: 60_000,
    run: async ({ driver, sibling }) => {
      const other = await sibling();
      for (let trial = 0; trial < TRIALS; trial += 1) {
        const queue = `fleet-${trial}`;
        const { id } = await driver.enqueue({ name: 'task', payload: { trial }, queue });
        await driver.pauses.pause(queue);
        expect(await claimOne(other, queue, 'w-other')).toEqual([]);
        expect((await other.pauses.list()).map((pause) => pause.queue)).toContain(queue);
        await other.pauses.resume(queue);
        expect((await claimOne(driver, queue, 'w-first')).map((job) => job.id)).toEqual([id]);
      }
    },
  },
  {
    title:
      'racing pauses from sibling instances on skewed clocks all answer one pausedAt, the one list answers',
    timeoutMs: 30_000,
    run: async (context) => {
      const { driver, sibling, t0 } = context;
      const skewed = await Promise.all(
        [1_000, 2_000, 3_000].map((skew) => sibling(createManualClock(t0 + skew))),
      );
      const racers = [driver, ...skewed, driver, ...skewed];
      const { values, errors } = await settleAll(
        racers.map((racer) => () => racer.pauses.pause('q')),
      );
      expect(errors).toEqual([]);
      const [first] = values;
      expect(values.every((value) => value.pausedAt === first?.pausedAt)).toBe(true);
      expect([t0, t0 + 1_000, t0 + 2_000, t0 + 3_000]).toContain(first?.pausedAt);
      for (const instance of [driver, ...skewed]) {
        expect(await instance.pauses.list()).toEqual([first]);
      }
    },
  },
  {
    title:
      "a claim racing a pause on other instances hands a job out at most once, and after the pause answered no instance's claim takes one",
    timeoutMs: 60_000,
    run: async (context) => {
      const drivers = await fleet(context);
      const { driver } = context;
      for (let n = 0; n < 20; n += 1) {
        await driver.enqueue({ name: 'task', payload: { n }, queue: 'q' });
      }
      const racing = await settleAll([
        () => driver.pauses.pause('q').then(() => []),
        ...drivers.map((instance, index) => () => claimOne(instance, 'q', `w-${index}`)),
      ]);
      expect(racing.errors).toEqual([]);
      const before = racing.values.flat().map((job) => job.id);
      expect(new Set(before).size).toBe(before.length);
      const after = await settleAll(
        drivers.map((instance, index) => () => claimOne(instance, 'q', `w-after-${index}`)),
      );
      expect(after.errors).toEqual([]);
      expect(after.values.flat()).toEqual([]);
    },
  },
  {
    title:
      "resume wakes every instance's subscribers to the queue as an enqueue does (without a wake subscription: the next poll finds the work)",
    timeoutMs: 10_000,
    run: async ({ driver, sibling }) => {
      const other = await sibling();
      await driver.pauses.pause('q');
      // Nothing else touches the queue: a wake for it can only come from the resume.
      if (other.subscribe !== undefined) {
        const woken: string[] = [];
        const unsubscribe = await other.subscribe(['q', 'elsewhere'], (queue) => {
          woken.push(queue);
        });
        try {
          await driver.pauses.resume('q');
          expect(await eventually(() => woken.includes('q'), 5_000)).toBe(true);
          expect(woken).not.toContain('elsewhere');
        } finally {
          await unsubscribe();
        }
      } else {
        await driver.pauses.resume('q');
      }
      const { id } = await driver.enqueue({ name: 'task', payload: {}, queue: 'q' });
      expect((await claimOne(other, 'q', 'w-woken')).map((job) => job.id)).toEqual([id]);
    },
  },
];
