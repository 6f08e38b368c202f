import { createClient, defineJob, isBerthError } from '@berth/core';
import type { GoldenScenario } from '../golden/transcript.js';
import { driveToState, driveUntil, outcomeOf } from './drive.js';
import { withWorker } from './harness.js';

export const jobCompletes: GoldenScenario = {
  name: 'job-completes',
  asserts: 'a worker runs an enqueued job once and acks its answer',
  async play(context) {
    const { driver, clock, note } = context;
    const runs: unknown[] = [];
    const greet = defineJob({
      name: 'greet',
      async run({ payload, attempt }) {
        runs.push({ payload, attempt });
        return `hello ${(payload as { name: string }).name}`;
      },
    });
    const client = createClient({ driver, jobs: [greet] });
    await withWorker(context, [greet], async () => {
      const { id, deduped } = await client.enqueue(greet, { name: 'Ada' });
      note('enqueue greet', { deduped });
      note('greet settled', outcomeOf(await driveToState(driver, clock, id, 'completed')));
      note('handler runs', runs);
    });
  },
};

export const retryThenComplete: GoldenScenario = {
  name: 'retry-then-complete',
  asserts: 'a handler that throws is retried, and its next attempt completes the job',
  async play(context) {
    const { driver, clock, note } = context;
    const attempts: number[] = [];
    const flaky = defineJob({
      name: 'flaky',
      retry: { maxAttempts: 3, backoff: { initialMs: 100 } },
      async run({ attempt }) {
        attempts.push(attempt);
        if (attempt === 1) throw new Error('first attempt fails');
        return 'second attempt answers';
      },
    });
    const client = createClient({ driver, jobs: [flaky] });
    await withWorker(context, [flaky], async () => {
      const { id } = await client.enqueue(flaky, null);
      note('flaky settled', outcomeOf(await driveToState(driver, clock, id, 'completed')));
      note('attempts the handler saw', attempts);
    });
  },
};

export const exhaustedDead: GoldenScenario = {
  name: 'exhausted-dead',
  asserts: 'a handler that throws on every attempt leaves the job dead once its attempts run out',
  async play(context) {
    const { driver, clock, note } = context;
    let runs = 0;
    const doomed = defineJob({
      name: 'doomed',
      retry: { maxAttempts: 2, backoff: { initialMs: 100 } },
      async run() {
        runs += 1;
        throw new Error(`attempt ${runs} fails`);
      },
    });
    const client = createClient({ driver, jobs: [doomed] });
    await withWorker(context, [doomed], async () => {
      const { id } = await client.enqueue(doomed, null);
      note('doomed settled', outcomeOf(await driveToState(driver, clock, id, 'dead')));
      note('handler runs', runs);
    });
  },
};

export const cancelAborts: GoldenScenario = {
  name: 'cancel-aborts',
  asserts: "a cancel aborts the running handler's signal, and nothing it writes afterwards lands",
  async play(context) {
    const { driver, clock, note } = context;
    const seen: { started: boolean; aborted: boolean; lateStep?: unknown } = {
      started: false,
      aborted: false,
    };
    const stuck = defineJob({
      name: 'stuck',
      async run({ signal, step }) {
        seen.started = true;
        await new Promise<void>((resolve) => {
          if (signal.aborted) resolve();
          signal.addEventListener('abort', () => resolve(), { once: true });
        });
        seen.aborted = true;
        try {
          await step.run('after-cancel', () => 'late');
          seen.lateStep = 'landed';
        } catch (error) {
          seen.lateStep = isBerthError(error) ? error.code : String(error);
        }
      },
    });
    const client = createClient({ driver, jobs: [stuck] });
    await withWorker(
      context,
      [stuck],
      async () => {
        const { id, runId } = await client.enqueue(stuck, null);
        await driveUntil(clock, 'the handler started', () => seen.started);
        note('cancel the running job', outcomeOf(await driver.cancel(id)));
        await driveUntil(
          clock,
          'the handler saw its signal abort',
          () => seen.lateStep !== undefined,
        );
        note('what the handler saw', seen);
        note('job after the handler returned', outcomeOf(await driver.get(id)));
        note('steps of the run', await driver.steps.list(runId));
      },
      { visibilityTimeoutMs: 3_000 },
    );
  },
};
