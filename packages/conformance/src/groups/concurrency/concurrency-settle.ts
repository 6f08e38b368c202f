import { type Driver, isBerthError } from '@berth/core';
import { expect } from 'vitest';
import type { KitCase } from '../../kit.js';
import { claimExactly, fenceOf, freshQueue, mustGet } from '../fixtures/index.js';
import { fleet, settleAll } from './concurrency-support.js';

const ROUNDS = 10;
const HOUR = 3_600_000;

/** A job of its own queue, claimed and given up for good: `dead`, ready to be requeued. */
async function deadJob(driver: Driver): Promise<string> {
  const queue = freshQueue();
  const { id } = await driver.enqueue({ name: 'task', queue, maxAttempts: 1 });
  const job = await claimExactly(driver, queue, id);
  expect(await driver.nack(fenceOf(job), { error: { message: 'gave up' }, final: true })).toBe(
    true,
  );
  return id;
}

export const concurrencySettleCases: readonly KitCase[] = [
  {
    title:
      'requeues of one dead job racing from several drivers: exactly one lands, every other answers JOB_NOT_REQUEUEABLE',
    timeoutMs: 60_000,
    run: async (context) => {
      const drivers = await fleet(context);
      for (let round = 0; round < ROUNDS; round += 1) {
        const id = await deadJob(context.driver);
        const { values, errors } = await settleAll(
          [...drivers, ...drivers].map((driver) => () => driver.requeue(id)),
        );
        expect(values).toHaveLength(1);
        expect(values[0]?.state).toBe('ready');
        for (const error of errors) {
          expect(isBerthError(error, 'JOB_NOT_REQUEUEABLE'), String(error)).toBe(true);
        }
        const job = await mustGet(context.driver, id);
        expect([job.state, job.attempts]).toEqual(['ready', 0]);
      }
    },
  },
  {
    title:
      'acquireSlot racing from several drivers grants exactly the limit, never more, round after round',
    timeoutMs: 60_000,
    run: async (context) => {
      const drivers = await fleet(context);
      const limit = 3;
      for (let round = 0; round < ROUNDS; round += 1) {
        const key = `tenant-${round % 2}`;
        const holders = drivers.flatMap((driver, index) =>
          Array.from({ length: 4 }, (_, n) => ({ driver, holder: `h-${round}-${index}-${n}` })),
        );
        const { values, errors } = await settleAll(
          holders.map(
            ({ driver, holder }) =>
              () =>
                driver.leases.acquireSlot(key, limit, holder, HOUR),
          ),
        );
        expect(errors).toEqual([]);
        const granted = holders.filter((_, index) => values[index]);
        expect(granted).toHaveLength(limit);
        expect(await context.driver.leases.acquireSlot(key, limit, 'late', HOUR)).toBe(false);
        for (const { driver, holder } of granted) {
          expect(await driver.leases.releaseSlot(key, holder)).toBe(true);
        }
      }
    },
  },
  {
    title:
      'a publish racing a suspend that waits for it always wakes the waiter: it is ready at once, never after its timeout',
    timeoutMs: 120_000,
    run: async (context) => {
      const drivers = await fleet(context);
      for (let round = 0; round < 4 * ROUNDS; round += 1) {
        const suspender = drivers[round % drivers.length] as Driver;
        const publisher = drivers[(round + 1) % drivers.length] as Driver;
        const queue = freshQueue();
        const event = `paid-${round}`;
        const { id } = await suspender.enqueue({ name: 'flow', queue });
        const job = await claimExactly(suspender, queue, id);
        // The waiter's last look at the events happened now; both changes race after it.
        const eventsSince = context.clock.now();
        const racers: (() => Promise<unknown>)[] = [
          () =>
            suspender.suspend(fenceOf(job), {
              until: eventsSince + HOUR,
              waitFor: event,
              eventsSince,
            }),
          () => publisher.events.publish(event, { round }),
        ];
        const { errors } = await settleAll(round % 2 === 0 ? racers : [...racers].reverse());
        expect(errors).toEqual([]);
        const after = await mustGet(context.driver, id);
        expect(after.state, `round ${round}: the waiter slept past its event`).toBe('ready');
        const resumed = await context.driver.claim({
          queues: [queue],
          workerId: 'resumer',
          visibilityTimeoutMs: HOUR,
        });
        expect(resumed.map((row) => [row.id, row.resumed])).toEqual([[id, true]]);
      }
    },
  },
];
