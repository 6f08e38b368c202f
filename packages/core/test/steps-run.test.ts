import { describe, expect, it } from 'vitest';
import { isBerthError, sleepFor } from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';
import {
  type AttemptContext,
  mustGet,
  QUEUE,
  runAttempt,
  runClaimed,
  WORKER,
} from './support/step-attempt.js';

describe('step.run', () => {
  it("answers a completed step's output on later attempts without running its function again", async () => {
    const { driver } = memoryOnManualClock();
    const { id, runId } = await driver.enqueue({ name: 'order', queue: QUEUE });
    let charged = 0;
    let shipAttempts = 0;
    const handler = async ({ step }: AttemptContext) => {
      const charge = await step.run('charge', () => {
        charged += 1;
        return { chargeId: `c${charged}` };
      });
      await step.run('ship', () => {
        shipAttempts += 1;
        if (shipAttempts === 1) throw new Error('carrier down');
      });
      return charge;
    };

    expect((await runAttempt(driver, handler)).kind).toBe('failed');
    const second = await runAttempt(driver, handler);

    expect(second).toMatchObject({ kind: 'completed', result: { chargeId: 'c1' } });
    expect(charged).toBe(1);
    expect(shipAttempts).toBe(2);
    expect((await mustGet(driver, id)).state).toBe('completed');
    const steps = await driver.steps.list(runId);
    expect(steps.map((s) => [s.name, s.status, s.attempts])).toEqual([
      ['charge', 'completed', 1],
      ['ship', 'completed', 2],
    ]);
    expect(steps[0]?.output).toEqual({ chargeId: 'c1' });
    expect(steps[1]).not.toHaveProperty('output');
  });

  it('records a failed step with its error and attempts, and rethrows the error', async () => {
    const { driver } = memoryOnManualClock();
    const { runId } = await driver.enqueue({ name: 'flaky', queue: QUEUE });
    const boom = Object.assign(new Error('boom'), { code: 'APP_BOOM' });

    const first = await runAttempt(driver, async ({ step }) => {
      await step.run('call', () => {
        throw boom;
      });
      return null;
    });

    expect(first).toMatchObject({ kind: 'failed', error: boom });
    const record = await driver.steps.get(runId, 'call');
    expect(record).toMatchObject({
      status: 'failed',
      attempts: 1,
      error: { code: 'APP_BOOM', message: 'boom' },
    });
  });

  it('gives the step function its attempt number', async () => {
    const { driver } = memoryOnManualClock();
    await driver.enqueue({ name: 'count', queue: QUEUE });
    const seen: number[] = [];
    const handler = async ({ step }: AttemptContext) =>
      step.run('try', ({ attempt }) => {
        seen.push(attempt);
        if (attempt < 3) throw new Error('again');
        return attempt;
      });

    for (let i = 0; i < 3; i += 1) await runAttempt(driver, handler);

    expect(seen).toEqual([1, 2, 3]);
  });

  it('answers STEP_INVALID for a step name used twice in one attempt', async () => {
    const { driver } = memoryOnManualClock();
    await driver.enqueue({ name: 'twice', queue: QUEUE });

    const outcome = await runAttempt(driver, async ({ step }) => {
      await step.run('same', () => 1);
      await step.run('same', () => 2);
      return null;
    });

    expect(outcome.kind).toBe('failed');
    const error = outcome.kind === 'failed' ? outcome.error : undefined;
    expect(isBerthError(error, 'STEP_INVALID')).toBe(true);
    expect(isBerthError(error) && error.meta).toMatchObject({ step: 'same' });
  });

  it('answers STEP_INVALID when a sleep reuses the name of a run step', async () => {
    const { driver } = memoryOnManualClock();
    await driver.enqueue({ name: 'mixed', queue: QUEUE });

    const outcome = await runAttempt(driver, async ({ step }) => {
      await step.run('pause', () => 1);
      await step.sleep('pause', 1_000);
      return null;
    });

    expect(outcome.kind === 'failed' && isBerthError(outcome.error, 'STEP_INVALID')).toBe(true);
  });

  it('answers STEP_INVALID for an output that is not JSON, and memoizes nothing', async () => {
    const { driver } = memoryOnManualClock();
    const { runId } = await driver.enqueue({ name: 'dates', queue: QUEUE });

    const outcome = await runAttempt(driver, async ({ step }) => {
      await step.run('when', () => ({ at: new Date() }) as never);
      return null;
    });

    expect(outcome.kind === 'failed' && isBerthError(outcome.error, 'STEP_INVALID')).toBe(true);
    expect(await driver.steps.get(runId, 'when')).toMatchObject({
      status: 'failed',
      error: { code: 'STEP_INVALID' },
    });
  });

  it('fails a step that runs past its timeout with JOB_TIMEOUT and aborts its signal', async () => {
    const { driver, clock } = memoryOnManualClock();
    const { runId } = await driver.enqueue({ name: 'slow', queue: QUEUE });
    let stepSignal: AbortSignal | undefined;
    let started = (): void => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });

    const attempt = runAttempt(driver, async ({ step }) => {
      await step.run(
        'wait',
        async ({ signal }) => {
          stepSignal = signal;
          started();
          await sleepFor(clock, 10_000, signal);
        },
        { timeout: 1_000 },
      );
      return null;
    });
    await running;
    await clock.advance(1_000);
    const outcome = await attempt;

    expect(outcome.kind === 'failed' && isBerthError(outcome.error, 'JOB_TIMEOUT')).toBe(true);
    expect(stepSignal?.aborted).toBe(true);
    expect(await driver.steps.get(runId, 'wait')).toMatchObject({
      status: 'failed',
      attempts: 1,
      error: { code: 'JOB_TIMEOUT' },
    });
  });

  it('applies the default step timeout to a step that names none', async () => {
    const { driver, clock } = memoryOnManualClock();
    await driver.enqueue({ name: 'slow', queue: QUEUE });

    let started = (): void => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });

    const attempt = runAttempt(
      driver,
      async ({ step }) => {
        await step.run('wait', ({ signal }) => {
          started();
          return sleepFor(clock, 10_000, signal);
        });
        return null;
      },
      { defaultStepTimeoutMs: 500 },
    );
    await running;
    await clock.advance(500);
    const outcome = await attempt;

    expect(outcome.kind === 'failed' && isBerthError(outcome.error, 'JOB_TIMEOUT')).toBe(true);
  });

  it("refuses a stale worker's step write with LEASE_LOST and aborts the attempt", async () => {
    const { driver, clock } = memoryOnManualClock();
    const { runId } = await driver.enqueue({ name: 'stale', queue: QUEUE });
    const [job] = await driver.claim({
      queues: [QUEUE],
      workerId: WORKER,
      visibilityTimeoutMs: 1_000,
    });
    if (job === undefined) throw new Error('expected a claim');
    const controller = new AbortController();
    let release = (): void => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });

    const attempt = runClaimed(
      driver,
      job,
      async ({ step }) => {
        await step.run('write', async () => {
          await gate;
          return 'late';
        });
        return null;
      },
      { controller },
    );
    await clock.advance(2_000);
    const [taken] = await driver.claim({
      queues: [QUEUE],
      workerId: 'worker-b',
      visibilityTimeoutMs: 30_000,
    });
    release();
    const outcome = await attempt;

    expect(taken?.id).toBe(job.id);
    expect(outcome.kind === 'failed' && isBerthError(outcome.error, 'LEASE_LOST')).toBe(true);
    expect(controller.signal.aborted).toBe(true);
    expect(await driver.steps.get(runId, 'write')).toBeUndefined();
  });

  it('lands nothing from a step that finishes after its job was cancelled', async () => {
    const { driver } = memoryOnManualClock();
    const { id, runId } = await driver.enqueue({ name: 'cancel-me', queue: QUEUE });
    let release = (): void => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const attempt = runAttempt(driver, async ({ step }) => {
      await step.run('work', async () => {
        await gate;
        return 1;
      });
      return null;
    });
    await new Promise((resolve) => setImmediate(resolve));
    await driver.cancel(id);
    release();
    const outcome = await attempt;

    expect(outcome.kind === 'failed' && isBerthError(outcome.error, 'LEASE_LOST')).toBe(true);
    expect(await driver.steps.list(runId)).toEqual([]);
    expect((await mustGet(driver, id)).state).toBe('cancelled');
  });

  it('runs the fromStep step of a requeue and every later step again, keeping earlier ones', async () => {
    const { driver } = memoryOnManualClock();
    const { id } = await driver.enqueue({ name: 'pipeline', queue: QUEUE, maxAttempts: 1 });
    const runs: string[] = [];
    let failLast = true;
    const handler = async ({ step }: AttemptContext) => {
      for (const name of ['fetch', 'transform', 'load']) {
        await step.run(name, () => {
          runs.push(name);
          return name;
        });
      }
      await step.run('notify', () => {
        runs.push('notify');
        if (failLast) throw new Error('smtp down');
      });
      return null;
    };

    await runAttempt(driver, handler);
    expect((await mustGet(driver, id)).state).toBe('dead');
    failLast = false;
    await driver.requeue(id, { fromStep: 'transform' });
    const outcome = await runAttempt(driver, handler);

    expect(outcome.kind).toBe('completed');
    expect(runs).toEqual(['fetch', 'transform', 'load', 'notify', 'transform', 'load', 'notify']);
  });
});
