import { describe, expect, it } from 'vitest';
import type { Driver } from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';
import { type AttemptContext, mustGet, QUEUE, runAttempt } from './support/step-attempt.js';

const T0 = Date.UTC(2026, 0, 1);

const waitForPayment = async ({ step }: AttemptContext) => {
  const event = await step.waitForEvent('paid', {
    event: 'invoice.paid',
    match: { invoice: 'inv-1' },
    timeout: 3_600_000,
  });
  return event === null ? 'timed out' : (event.payload as { amount: number }).amount;
};

/** A driver whose event look is followed, before the suspend lands, by `publish`. */
function publishAfterTheLook(driver: Driver, publish: () => Promise<unknown>): Driver {
  return {
    ...driver,
    events: {
      ...driver.events,
      find: async (name, options) => {
        const found = await driver.events.find(name, options);
        await publish();
        return found;
      },
    },
  };
}

describe('step.waitForEvent and a publish racing its suspend', () => {
  it('is due at once when the event lands between the look and the suspend', async () => {
    const { driver, clock } = memoryOnManualClock();
    const { id } = await driver.enqueue({ name: 'invoice', queue: QUEUE });
    const racing = publishAfterTheLook(driver, async () => {
      await clock.advance(1);
      await driver.events.publish('invoice.paid', { invoice: 'inv-1', amount: 42 });
    });

    const first = await runAttempt(racing, waitForPayment, { eventPollMs: 3_600_000 });

    expect(first).toMatchObject({ kind: 'suspended', waitFor: 'invoice.paid' });
    expect(await mustGet(driver, id)).toMatchObject({ state: 'ready', runAt: T0 + 1 });
    expect(await runAttempt(driver, waitForPayment)).toMatchObject({
      kind: 'completed',
      result: 42,
    });
  });

  it('does not wake again at once for a non-matching event of the look’s own instant', async () => {
    const { driver } = memoryOnManualClock();
    const { id } = await driver.enqueue({ name: 'invoice', queue: QUEUE });
    await driver.events.publish('invoice.paid', { invoice: 'other', amount: 1 });

    await runAttempt(driver, waitForPayment, { eventPollMs: 3_600_000 });

    expect(await mustGet(driver, id)).toMatchObject({ state: 'suspended', runAt: T0 + 3_600_000 });
  });
});
