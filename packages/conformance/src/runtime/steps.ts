import { createClient, defineJob, type Json, type StepRecord } from '@berth/core';
import type { GoldenScenario } from '../golden/transcript.js';
import { driveToState, outcomeOf } from './drive.js';
import { withWorker } from './harness.js';

const eventPayload = (output: Json): Json =>
  output !== null && typeof output === 'object' && !Array.isArray(output)
    ? ((output as { readonly payload?: Json }).payload ?? null)
    : null;

/** A step as a transcript keeps it: what it is, not when it ran. */
const stepOutcome = (record: StepRecord | undefined) =>
  record === undefined
    ? undefined
    : {
        name: record.name,
        status: record.status,
        attempts: record.attempts,
        // An event wait's output is the event record: its payload is what the scenario is about.
        ...(record.output === undefined
          ? {}
          : record.eventName === undefined
            ? { output: record.output }
            : { answered: eventPayload(record.output) }),
        ...(record.eventName === undefined ? {} : { eventName: record.eventName }),
        ...(record.wakeAt === undefined ? {} : { wakesAfterMs: record.wakeAt - record.startedAt }),
      };

const realPause = () => new Promise<void>((resolve) => setTimeout(resolve, 20));

export const stepMemoizedAcrossRetry: GoldenScenario = {
  name: 'step-memoized-across-retry',
  asserts:
    "a completed step's output is reused by the retry, which runs only the failed step again",
  async play(context) {
    const { driver, clock, note } = context;
    const runs: string[] = [];
    const order = defineJob({
      name: 'order',
      retry: { maxAttempts: 3, backoff: { initialMs: 100 } },
      async run({ step }) {
        const charge = await step.run('charge', () => {
          runs.push('charge');
          return { chargeId: 'ch_1' };
        });
        await step.run('ship', ({ attempt }) => {
          runs.push(`ship#${attempt}`);
          if (attempt === 1) throw new Error('carrier down');
        });
        return charge;
      },
    });
    const client = createClient({ driver, jobs: [order] });
    await withWorker(context, [order], async () => {
      const { id, runId } = await client.enqueue(order, null);
      note('order settled', outcomeOf(await driveToState(driver, clock, id, 'completed')));
      note('step functions run', runs);
      note('steps of the run', (await driver.steps.list(runId)).map(stepOutcome));
    });
  },
};

export const sleepSuspendsThenResumes: GoldenScenario = {
  name: 'sleep-suspends-then-resumes',
  asserts: 'a sleeping job frees its worker for other jobs and resumes when its sleep is over',
  async play(context) {
    const { driver, clock, note } = context;
    const log: string[] = [];
    const drip = defineJob({
      name: 'drip',
      async run({ step }) {
        await step.run('welcome', () => {
          log.push('welcome');
        });
        await step.sleep('wait-a-minute', 60_000);
        await step.run('follow-up', () => {
          log.push('follow-up');
        });
        return 'dripped';
      },
    });
    const other = defineJob({
      name: 'other',
      async run() {
        log.push('other');
        return 'ran while drip slept';
      },
    });
    const client = createClient({ driver, jobs: [drip, other] });
    await withWorker(context, [drip, other], async () => {
      const { id, runId } = await client.enqueue(drip, null);
      await driveToState(driver, clock, id, 'suspended');
      const { id: otherId } = await client.enqueue(other, null);
      note('other settled', outcomeOf(await driveToState(driver, clock, otherId, 'completed')));
      const sleeping = await driver.steps.get(runId, 'wait-a-minute');
      note('the sleep step', stepOutcome(sleeping));
      const wakeAt = sleeping?.wakeAt ?? Number.NaN;
      await clock.set(wakeAt - 1);
      await realPause();
      note('drip 1 ms before its wake', outcomeOf(await driver.get(id)));
      await clock.set(wakeAt);
      note('drip settled', outcomeOf(await driveToState(driver, clock, id, 'completed')));
      note('what ran, in order', log);
      note('steps of the run', (await driver.steps.list(runId)).map(stepOutcome));
    });
  },
};

const waitForPayment = (log: unknown[]) =>
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

export const waitForEventResumesOnPublish: GoldenScenario = {
  name: 'wait-for-event-resumes-on-publish',
  asserts: 'an event wait parks the job, and a matching publish resumes it with the payload',
  async play(context) {
    const { driver, clock, note } = context;
    const log: unknown[] = [];
    const invoice = waitForPayment(log);
    const client = createClient({ driver, jobs: [invoice] });
    await withWorker(context, [invoice], async () => {
      const { id, runId } = await client.enqueue(invoice, null);
      note('invoice parked', outcomeOf(await driveToState(driver, clock, id, 'suspended')));
      // Any publish of the name wakes the waiter; one that does not match parks it again.
      await client.publish('invoice.paid', { invoice: 'inv-2', amount: 1 });
      note(
        'after a publish that does not match',
        outcomeOf(await driveToState(driver, clock, id, 'suspended')),
      );
      await client.publish('invoice.paid', { invoice: 'inv-1', amount: 42 });
      note('invoice settled', outcomeOf(await driveToState(driver, clock, id, 'completed')));
      note('what the wait answered', log);
      note('steps of the run', (await driver.steps.list(runId)).map(stepOutcome));
    });
  },
};

export const waitForEventTimesOut: GoldenScenario = {
  name: 'wait-for-event-times-out',
  asserts: 'an event wait with no event answers null once its timeout passes',
  async play(context) {
    const { driver, clock, note } = context;
    const log: unknown[] = [];
    const invoice = waitForPayment(log);
    const client = createClient({ driver, jobs: [invoice] });
    await withWorker(context, [invoice], async () => {
      const { id, runId } = await client.enqueue(invoice, null);
      await driveToState(driver, clock, id, 'suspended');
      const waiting = await driver.steps.get(runId, 'paid');
      note('the wait step', stepOutcome(waiting));
      await clock.set(waiting?.wakeAt ?? Number.NaN);
      note('invoice settled', outcomeOf(await driveToState(driver, clock, id, 'completed')));
      note('what the wait answered', log);
    });
  },
};

export const waitForEventPublishedBefore: GoldenScenario = {
  name: 'wait-for-event-published-before',
  asserts: 'an event published after the job was made but before its wait began resumes it at once',
  async play(context) {
    const { driver, clock, note } = context;
    const log: unknown[] = [];
    const invoice = waitForPayment(log);
    const client = createClient({ driver, jobs: [invoice] });
    const { id } = await client.enqueue(invoice, null);
    await clock.advance(1_000);
    await client.publish('invoice.paid', { invoice: 'inv-1', amount: 7 });
    await withWorker(context, [invoice], async () => {
      note('invoice settled', outcomeOf(await driveToState(driver, clock, id, 'completed')));
      note('what the wait answered', log);
    });
  },
};
