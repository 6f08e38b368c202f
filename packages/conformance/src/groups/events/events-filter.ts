import { expect } from 'vitest';
import { expectRefusal } from '../../assert.js';
import type { KitCase } from '../../kit.js';
import { claimJob, enqueueJob, fenceOf, mustGet } from '../fixtures/index.js';

type Driver = Parameters<KitCase['run']>[0]['driver'];

/** Parks a fresh job of its own queue with `options` and answers its state and runAt offset. */
async function park(
  driver: Driver,
  t0: number,
  queue: string,
  options: Parameters<Driver['suspend']>[1],
): Promise<[string, number]> {
  const id = await enqueueJob(driver, { queue });
  const job = await claimJob(driver, id, queue);
  expect(await driver.suspend(fenceOf(job), options)).toBe(true);
  const row = await mustGet(driver, job.id);
  return [row.state, row.runAt - t0];
}

/**
 * A waiter's filter on the events it has already looked at: `suspend`'s `eventsMatch` and
 * `eventsExclude`, `find`'s `exclude`. The same events count in the suspend as in the find.
 */
export const eventsFilterCases: readonly KitCase[] = [
  {
    title:
      'eventsMatch: only an event since eventsSince whose payload matches makes the suspend due; eventsExclude skips the named ids',
    run: async ({ driver, clock, t0 }) => {
      const paid7 = await driver.events.publish('order.paid', {
        orderId: 7,
        amount: [1, { a: 2 }],
      });
      await driver.events.publish('order.paid', { orderId: 8 });
      await clock.advance(20);
      const base = { until: t0 + 3_600_000, waitFor: 'order.paid', eventsSince: t0 };
      expect(
        await park(driver, t0, 'filter-hit', { ...base, eventsMatch: { orderId: 7 } }),
      ).toEqual(['ready', 20]);
      expect(
        await park(driver, t0, 'filter-deep', {
          ...base,
          eventsMatch: { orderId: 7, amount: [1, { a: 2 }] },
        }),
      ).toEqual(['ready', 20]);
      expect(
        await park(driver, t0, 'filter-miss', { ...base, eventsMatch: { orderId: 9 } }),
      ).toEqual(['suspended', 3_600_000]);
      expect(
        await park(driver, t0, 'filter-excluded', {
          ...base,
          eventsMatch: { orderId: 7 },
          eventsExclude: [paid7.id],
        }),
      ).toEqual(['suspended', 3_600_000]);
      // Excluding one leaves the other: without a match, order 8 still counts.
      expect(
        await park(driver, t0, 'filter-other', { ...base, eventsExclude: [paid7.id] }),
      ).toEqual(['ready', 20]);
    },
  },
  {
    title: 'find skips the events named in exclude and answers the next one that matches',
    run: async ({ driver, clock, t0 }) => {
      const first = await driver.events.publish('order.paid', { orderId: 7 });
      await clock.advance(1);
      const second = await driver.events.publish('order.paid', { orderId: 7 });
      const found = await driver.events.find('order.paid', {
        after: t0,
        match: { orderId: 7 },
        exclude: [first.id],
      });
      expect(found?.id).toBe(second.id);
      expect(
        await driver.events.find('order.paid', { after: t0, exclude: [first.id, second.id] }),
      ).toBeUndefined();
    },
  },
  {
    title:
      'eventsMatch or eventsExclude without eventsSince, or an exclude that is not a list of ids, is refused with JOB_INVALID naming it',
    run: async ({ driver, t0 }) => {
      const id = await enqueueJob(driver, { queue: 'filter-bad' });
      const job = await claimJob(driver, id, 'filter-bad');
      const base = { until: t0 + 1_000, waitFor: 'order.paid' };
      await expectRefusal(
        driver.suspend(fenceOf(job), { ...base, eventsMatch: { orderId: 7 } }),
        'JOB_INVALID',
        { field: 'eventsMatch' },
      );
      await expectRefusal(
        driver.suspend(fenceOf(job), { ...base, eventsSince: t0, eventsExclude: ['nope'] }),
        'JOB_INVALID',
        { field: 'eventsExclude' },
      );
      await expectRefusal(
        driver.events.find('order.paid', { after: t0, exclude: 'nope' as unknown as string[] }),
        'JOB_INVALID',
        { field: 'exclude' },
      );
      expect((await mustGet(driver, job.id)).state).toBe('running');
    },
  },
];
