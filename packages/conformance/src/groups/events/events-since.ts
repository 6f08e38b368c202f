import { expect } from 'vitest';
import { expectRefusal } from '../../assert.js';
import type { KitCase } from '../../kit.js';
import { claimJob, enqueueJob, fenceOf, mustGet } from '../fixtures/index.js';

/** Claims a fresh job of its own queue, for a suspend to park. */
async function claimed(driver: Parameters<KitCase['run']>[0]['driver'], queue: string) {
  const id = await enqueueJob(driver, { queue });
  return claimJob(driver, id, queue);
}

/** `suspend({ waitFor, eventsSince })`: the gap between a waiter's last look and its suspend. */
export const eventsSinceCases: readonly KitCase[] = [
  {
    title:
      'a suspend waiting for an event already published since eventsSince is due at once, in the suspend itself',
    run: async ({ driver, clock, t0 }) => {
      const job = await claimed(driver, 'since-hit');
      await clock.advance(10);
      await driver.events.publish('order.paid', { orderId: 7 });
      await clock.advance(10);
      const landed = await driver.suspend(fenceOf(job), {
        until: t0 + 3_600_000,
        waitFor: 'order.paid',
        eventsSince: t0 + 5,
      });
      expect(landed).toBe(true);
      const due = await mustGet(driver, job.id);
      expect([due.state, due.runAt, due.waitFor]).toEqual(['ready', t0 + 20, 'order.paid']);
      const resumed = await driver.claim({
        queues: ['since-hit'],
        workerId: 'kit-worker',
        visibilityTimeoutMs: 60_000,
      });
      expect(resumed.map((row) => [row.id, row.resumed, row.attempts])).toEqual([
        [job.id, true, 1],
      ]);
    },
  },
  {
    title:
      'eventsSince counts a live event published exactly at it, and never one before it, of another name, or expired',
    run: async ({ driver, clock, t0 }) => {
      await driver.events.publish('order.paid', { at: 'eventsSince' });
      await driver.events.publish('order.shipped', {});
      await driver.events.publish('invoice.sent', {}, { ttl: 5 });
      await clock.advance(20);
      const park = async (queue: string, waitFor: string, eventsSince: number) => {
        const job = await claimed(driver, queue);
        expect(
          await driver.suspend(fenceOf(job), { until: t0 + 3_600_000, waitFor, eventsSince }),
        ).toBe(true);
        const row = await mustGet(driver, job.id);
        return [row.state, row.runAt - t0];
      };
      expect(await park('since-at', 'order.paid', t0)).toEqual(['ready', 20]);
      expect(await park('since-after', 'order.paid', t0 + 1)).toEqual(['suspended', 3_600_000]);
      expect(await park('since-expired', 'invoice.sent', t0)).toEqual(['suspended', 3_600_000]);
      expect(await park('since-other', 'order.refunded', t0)).toEqual(['suspended', 3_600_000]);
    },
  },
  {
    title: 'eventsSince without waitFor is refused with JOB_INVALID naming eventsSince',
    run: async ({ driver, t0 }) => {
      const job = await claimed(driver, 'since-bad');
      await expectRefusal(
        driver.suspend(fenceOf(job), { until: t0 + 1_000, eventsSince: t0 }),
        'JOB_INVALID',
        { field: 'eventsSince' },
      );
      expect((await mustGet(driver, job.id)).state).toBe('running');
    },
  },
];
