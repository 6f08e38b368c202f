import { describe, expect, it } from 'vitest';
import type { EventRecord } from '../src/index.js';
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

describe('step.waitForEvent', () => {
  it('suspends waiting for the event and resumes when it is published', async () => {
    const { driver, clock } = memoryOnManualClock();
    const { id, runId } = await driver.enqueue({ name: 'invoice', queue: QUEUE });

    const first = await runAttempt(driver, waitForPayment, { eventPollMs: 3_600_000 });
    expect(first).toMatchObject({
      kind: 'suspended',
      until: T0 + 3_600_000,
      waitFor: 'invoice.paid',
    });
    expect(await mustGet(driver, id)).toMatchObject({
      state: 'suspended',
      waitFor: 'invoice.paid',
    });

    await clock.advance(60_000);
    const published = await driver.events.publish('invoice.paid', { invoice: 'inv-1', amount: 42 });
    expect((await mustGet(driver, id)).state).toBe('ready');
    const resumed = await runAttempt(driver, waitForPayment);

    expect(resumed).toMatchObject({ kind: 'completed', result: 42 });
    expect(await driver.steps.get(runId, 'paid')).toMatchObject({
      status: 'completed',
      eventName: 'invoice.paid',
      eventId: published.id,
      output: { id: published.id, payload: { invoice: 'inv-1', amount: 42 } },
    });
  });

  it('answers an event published after the job was made but before the wait began', async () => {
    const { driver, clock } = memoryOnManualClock();
    await driver.enqueue({ name: 'invoice', queue: QUEUE });
    await clock.advance(1_000);
    await driver.events.publish('invoice.paid', { invoice: 'inv-1', amount: 7 });

    const outcome = await runAttempt(driver, waitForPayment);

    expect(outcome).toMatchObject({ kind: 'completed', result: 7 });
  });

  it('ignores an event published before the job was made, and one that does not match', async () => {
    const { driver, clock } = memoryOnManualClock();
    await driver.events.publish('invoice.paid', { invoice: 'inv-1', amount: 1 });
    await clock.advance(1);
    await driver.enqueue({ name: 'invoice', queue: QUEUE });
    await driver.events.publish('invoice.paid', { invoice: 'inv-2', amount: 2 });

    const outcome = await runAttempt(driver, waitForPayment);

    expect(outcome.kind).toBe('suspended');
  });

  it('answers null once the timeout passes, and completes the step', async () => {
    const { driver, clock } = memoryOnManualClock();
    const { runId } = await driver.enqueue({ name: 'invoice', queue: QUEUE });

    await runAttempt(driver, waitForPayment, { eventPollMs: 3_600_000 });
    await clock.advance(3_600_000);
    const outcome = await runAttempt(driver, waitForPayment);

    expect(outcome).toMatchObject({ kind: 'completed', result: 'timed out' });
    expect(await driver.steps.get(runId, 'paid')).toMatchObject({
      status: 'completed',
      output: null,
    });
  });

  it('answers the memoized event on a later attempt, even once the event has expired', async () => {
    const { driver, clock } = memoryOnManualClock();
    await driver.enqueue({ name: 'invoice', queue: QUEUE });
    await driver.events.publish('invoice.paid', { invoice: 'inv-1', amount: 5 }, { ttl: 1_000 });
    const seen: (EventRecord | null)[] = [];
    let failed = false;
    const handler = async ({ step }: AttemptContext) => {
      seen.push(await step.waitForEvent('paid', { event: 'invoice.paid', timeout: 60_000 }));
      if (!failed) {
        failed = true;
        throw new Error('after the wait');
      }
      return null;
    };

    await runAttempt(driver, handler);
    await clock.advance(5_000);
    await runAttempt(driver, handler);

    expect(seen).toHaveLength(2);
    expect(seen[1]).toEqual(seen[0]);
    expect(seen[0]?.payload).toEqual({ invoice: 'inv-1', amount: 5 });
  });

  it('parks at most the poll interval, then looks for the event again', async () => {
    const { driver, clock } = memoryOnManualClock();
    const { id } = await driver.enqueue({ name: 'invoice', queue: QUEUE });

    const first = await runAttempt(driver, waitForPayment, { eventPollMs: 60_000 });
    expect(first).toMatchObject({ kind: 'suspended', until: T0 + 60_000 });
    await clock.advance(60_000);
    const second = await runAttempt(driver, waitForPayment, { eventPollMs: 60_000 });

    expect(second).toMatchObject({ kind: 'suspended', until: T0 + 120_000 });
    expect((await mustGet(driver, id)).attempts).toBe(1);
  });
});
