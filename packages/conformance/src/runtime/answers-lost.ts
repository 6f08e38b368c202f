import { createClient, defineJob, type SettledOutcome, type Worker } from '@berth/core';
import { driverUnavailable } from '@berth/core/driver';
import type { GoldenScenario } from '../golden/transcript.js';
import { driveToState, driveUntil, outcomeOf } from './drive.js';
import { withWorker } from './harness.js';
import { type CallPlan, wrapDriver } from './wrap-driver.js';

/**
 * Every odd call lands and then loses its answer (a connection that drops as the answer comes
 * back), so the worker sends it again; the resend, fenced, answers false.
 */
const landsThenLosesAnswer: CallPlan = async (call, count) => {
  const answer = await call();
  if (count % 2 === 1) {
    throw driverUnavailable({
      driver: 'kit',
      operation: 'answer',
      detail: 'the connection dropped after the change landed',
    });
  }
  return answer;
};

/** Writes every settle event of the worker as `event:job`, in order. */
const recordEvents = (seen: string[]) => (worker: Worker) => {
  worker.on('completed', ({ job }) => seen.push(`completed:${job.name}`));
  worker.on('retrying', ({ job }) => seen.push(`retrying:${job.name}`));
  worker.on('failed', ({ job }) => seen.push(`failed:${job.name}`));
  worker.on('dead', ({ job }) => seen.push(`dead:${job.name}`));
  worker.on('suspended', ({ job, reason }) => seen.push(`suspended:${job.name}:${reason}`));
  worker.on('lease-lost', ({ job }) => seen.push(`lease-lost:${job.name}`));
  worker.on('settle-failed', ({ job, settle }) => seen.push(`settle-failed:${job.name}:${settle}`));
};

/** What `onSettled` was told, as `job:state (message)`. */
const settledAs = (told: string[]) => (outcome: SettledOutcome, name: string) => {
  told.push(
    outcome.state === 'completed'
      ? `${name}:completed`
      : `${name}:${outcome.state} (${outcome.error.message})`,
  );
};

export const nackAnswerLost: GoldenScenario = {
  name: 'nack-answer-lost',
  asserts:
    'a nack that landed before its answer was lost is recognised on the resend: the job’s real state (dead, failed, retrying) is emitted and onSettled is told',
  async play(context) {
    const { driver, clock, note } = context;
    const losing = wrapDriver(driver, { nackMany: landsThenLosesAnswer });
    const seen: string[] = [];
    const told: string[] = [];
    const onSettled = settledAs(told);
    const doomed = defineJob({
      name: 'doomed',
      retry: { maxAttempts: 1 },
      run: () => {
        throw new Error('the only attempt fails');
      },
      onSettled: (outcome) => onSettled(outcome, 'doomed'),
    });
    const dropped = defineJob({
      name: 'dropped',
      retry: { maxAttempts: 1, deadLetter: false },
      run: () => {
        throw new Error('dropped on failure');
      },
      onSettled: (outcome) => onSettled(outcome, 'dropped'),
    });
    const flaky = defineJob({
      name: 'flaky',
      retry: { maxAttempts: 2, backoff: { initialMs: 1_000, jitter: 0 } },
      run: ({ attempt }) => {
        if (attempt === 1) throw new Error('first attempt fails');
        return 'second attempt answers';
      },
      onSettled: (outcome) => onSettled(outcome, 'flaky'),
    });
    const jobs = [doomed, dropped, flaky];
    const client = createClient({ driver, jobs });
    // One job at a time, each settle told before the next job: a transcript in one order.
    const told1 = (count: number) => () => told.length >= count;
    await withWorker(
      context,
      jobs,
      async () => {
        const first = await client.enqueue(doomed, null);
        await driveUntil(clock, 'onSettled was told of doomed', told1(1));
        note('doomed', outcomeOf(await driver.get(first.id)));
        const second = await client.enqueue(dropped, null);
        await driveUntil(clock, 'onSettled was told of dropped', told1(2));
        note('dropped', outcomeOf(await driver.get(second.id)));
        const third = await client.enqueue(flaky, null);
        note('flaky settled', outcomeOf(await driveToState(driver, clock, third.id, 'completed')));
        await driveUntil(clock, 'onSettled was told of flaky twice', told1(4));
        note('worker events', seen);
        note('onSettled was told', told);
        note('nackMany calls (each first send lost its answer)', losing.calls.nackMany);
      },
      { driver: losing.driver, on: recordEvents(seen) },
    );
  },
};

export const suspendAnswerLost: GoldenScenario = {
  name: 'suspend-answer-lost',
  asserts:
    'a suspend that landed before its answer was lost is recognised on the resend: the job is reported suspended, not failed, and resumes on time',
  async play(context) {
    const { driver, clock, note } = context;
    const losing = wrapDriver(driver, { suspend: landsThenLosesAnswer });
    const seen: string[] = [];
    const runs: string[] = [];
    const nap = defineJob({
      name: 'nap',
      retry: { maxAttempts: 1 },
      async run({ step }) {
        runs.push('ran');
        await step.sleep('nap', 60_000);
        return 'woke';
      },
    });
    const client = createClient({ driver, jobs: [nap] });
    await withWorker(
      context,
      [nap],
      async () => {
        const { id } = await client.enqueue(nap, null);
        await driveUntil(clock, 'the suspend was sent again', () => losing.calls.suspend === 2);
        await driveUntil(clock, 'the worker reported the suspend', () => seen.length > 0);
        note('nap parked', outcomeOf(await driver.get(id)));
        note('worker events while parked', [...seen]);
        await clock.advance(60_000);
        note('nap settled', outcomeOf(await driveToState(driver, clock, id, 'completed')));
        // The row reads completed as soon as the ack lands; the worker hears so a moment later.
        await driveUntil(clock, 'the worker reported the completion', () =>
          seen.includes('completed:nap'),
        );
        note('worker events', seen);
        note('runs of the handler', runs.length);
      },
      { driver: losing.driver, on: recordEvents(seen) },
    );
  },
};
