import { createClient, type Driver, defineJob, type Json } from '@berth/core';
import type { GoldenScenario } from '../golden/transcript.js';
import { outcomeOf } from './drive.js';
import { withWorker } from './harness.js';
import { NEVER_MS, waitReal } from './wake-ups.js';

const realPause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The case's driver, with `publishes` published (through the driver itself, on the clock as it
 * stands) just before the first suspend of an event wait lands: a publish in the gap between the
 * wait's look and its suspend, stamped in the look's own millisecond. Counts claims that
 * answered a job.
 */
function publishInTheGap(driver: Driver, publishes: readonly Json[]) {
  const seen = { claimed: 0 };
  let done = false;
  const wrapped = new Proxy(driver, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (property === 'suspend') {
        return async (...args: Parameters<Driver['suspend']>) => {
          if (!done && args[1].waitFor !== undefined) {
            done = true;
            for (const payload of publishes) await target.events.publish('invoice.paid', payload);
          }
          return target.suspend(...args);
        };
      }
      if (property === 'claim') {
        return async (...args: Parameters<Driver['claim']>) => {
          const jobs = await target.claim(...args);
          seen.claimed += jobs.length;
          return jobs;
        };
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { driver: wrapped, seen };
}

const invoiceJob = (log: unknown[]) =>
  defineJob({
    name: 'invoice',
    async run({ step }) {
      const paid = await step.waitForEvent('paid', {
        event: 'invoice.paid',
        match: { invoice: 'inv-1' },
        timeout: 3_600_000,
      });
      log.push(paid === null ? 'timed out' : paid.payload);
      return paid === null ? 'unpaid' : 'paid';
    },
  });

const options = { pollIntervalMs: NEVER_MS, settleBatchMs: 0 } as const;

export const eventInLooksMillisecond: GoldenScenario = {
  name: 'event-in-looks-millisecond',
  asserts:
    "an event published between a wait's look and its suspend, in the look's own millisecond, resumes the run at once",
  async play(context) {
    const { driver, note } = context;
    const log: unknown[] = [];
    const invoice = invoiceJob(log);
    const gap = publishInTheGap(driver, [{ invoice: 'inv-2' }, { invoice: 'inv-1', amount: 5 }]);
    const client = createClient({ driver, jobs: [invoice] });
    await withWorker(
      context,
      [invoice],
      async () => {
        const { id } = await client.enqueue(invoice, null);
        await waitReal('the invoice completed', async () => {
          return (await driver.get(id))?.state === 'completed';
        });
        note('invoice settled', outcomeOf(await driver.get(id)));
        note('what the wait answered', log);
      },
      { ...options, driver: gap.driver },
    );
  },
};

export const unmatchedEventDoesNotSpin: GoldenScenario = {
  name: 'unmatched-event-does-not-spin',
  asserts:
    'an event in the gap that does not match leaves the run parked, claimed no more, until a matching one is published',
  async play(context) {
    const { driver, note } = context;
    const log: unknown[] = [];
    const invoice = invoiceJob(log);
    const gap = publishInTheGap(driver, [{ invoice: 'inv-2' }]);
    const client = createClient({ driver, jobs: [invoice] });
    await withWorker(
      context,
      [invoice],
      async () => {
        const { id } = await client.enqueue(invoice, null);
        await waitReal('the invoice parked', async () => {
          return (await driver.get(id))?.state === 'suspended';
        });
        await realPause(100);
        note('invoice parked', outcomeOf(await driver.get(id)));
        // A spin would claim it hundreds of times in 100 ms; a driver whose wake saw the gap's
        // publish late may wake it once more, and it parks again.
        const parked = gap.seen.claimed;
        note('claimed at most twice while parked', parked >= 1 && parked <= 2);
        await client.publish('invoice.paid', { invoice: 'inv-1', amount: 9 });
        await waitReal('the invoice completed', async () => {
          return (await driver.get(id))?.state === 'completed';
        });
        note('claimed once more by the matching publish', gap.seen.claimed === parked + 1);
        note('what the wait answered', log);
      },
      { ...options, driver: gap.driver },
    );
  },
};

export const twoWaitsTakeTwoEvents: GoldenScenario = {
  name: 'two-waits-take-two-events',
  asserts: 'two waits of one run for the same event each take their own event, never the same one',
  async play(context) {
    const { driver, note } = context;
    // By wait: a resume replays the first wait (answered from its step), which is no new take.
    const taken: Record<string, unknown> = {};
    const twice = defineJob({
      name: 'twice',
      async run({ step }) {
        for (const name of ['first', 'second']) {
          const event = await step.waitForEvent(name, { event: 'tick', timeout: 3_600_000 });
          taken[name] = event?.payload ?? null;
        }
        return 'two ticks';
      },
    });
    const client = createClient({ driver, jobs: [twice] });
    // Published before the job was made: no wait of it counts this one.
    await client.publish('tick', { n: 0 });
    await context.clock.advance(1);
    await withWorker(
      context,
      [twice],
      async () => {
        const { id } = await client.enqueue(twice, null);
        await client.publish('tick', { n: 1 });
        await waitReal('the run waits for its second tick', async () => {
          return (await driver.get(id))?.state === 'suspended';
        });
        note('after one tick', outcomeOf(await driver.get(id)));
        await client.publish('tick', { n: 2 });
        await waitReal('the run completed', async () => {
          return (await driver.get(id))?.state === 'completed';
        });
        note('settled', outcomeOf(await driver.get(id)));
        note('ticks taken', taken);
      },
      options,
    );
  },
};
