import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createClient, createStepApi, type Driver, defineJob } from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';
import { driveToState, driveUntil, gate, settleTicks } from './support/runtime.js';
import { fenceOf, LEASE_MS, QUEUE, WORKER } from './support/step-attempt.js';
import { testWorkers } from './support/workers.js';

const { start: startWorker } = testWorkers({
  workerId: 'review',
  concurrency: 2,
  visibilityTimeoutMs: 30_000,
  pollIntervalMs: 50,
  keyBusyDelayMs: 100,
});

describe('worker: fleet slots are released whatever admission meets', () => {
  it('frees the concurrency slot when the rate-limit key throws, so the next job is not blocked until the ttl', async () => {
    const { driver, clock } = memoryOnManualClock();
    const job = defineJob({
      name: 'keyed',
      schema: z.object({ bad: z.boolean() }),
      concurrency: { limit: 1 },
      rateLimit: {
        limit: 10,
        intervalMs: 1_000,
        key: (payload) => {
          if (payload.bad) throw new Error('no rate key for this payload');
          return 'k';
        },
      },
      retry: { maxAttempts: 1 },
      run: () => 'ran',
    });
    await startWorker(driver, [job]);
    const client = createClient({ driver });
    const bad = await client.enqueue(job, { bad: true });
    await driveToState(driver, clock, bad.id, 'dead', { stepMs: 5 });
    const good = await client.enqueue(job, { bad: false });
    // Far less than the 30 s slot ttl: a leaked slot would keep the job bouncing until then.
    await driveToState(driver, clock, good.id, 'completed', { stepMs: 50, maxMs: 2_000 });
  });
});

describe('worker: stop() within its grace', () => {
  it('resolves once the grace has passed even when an onSettled never returns', async () => {
    const { driver, clock } = memoryOnManualClock();
    let called = false;
    const job = defineJob({
      name: 'hanging-hook',
      run: () => 'done',
      onSettled: () => {
        called = true;
        return new Promise<void>(() => {});
      },
    });
    const worker = await startWorker(driver, [job]);
    const { id } = await createClient({ driver }).enqueue(job, null);
    await driveToState(driver, clock, id, 'completed', { stepMs: 5 });
    await driveUntil(clock, () => called);
    let stopped = false;
    const stopping = worker.stop({ graceMs: 100 }).then(() => {
      stopped = true;
    });
    await driveUntil(clock, () => stopped, { stepMs: 10, maxMs: 1_000, what: 'stop() resolves' });
    await stopping;
  });
});

describe('steps: nothing lands after the attempt aborted', () => {
  const gatedSteps = (driver: Driver, opened: Promise<void>): Driver => ({
    ...driver,
    steps: {
      ...driver.steps,
      get: async (runId, name) => {
        await opened;
        return driver.steps.get(runId, name);
      },
      // The step API reads the run's steps with one list per attempt.
      list: async (runId) => {
        await opened;
        return driver.steps.list(runId);
      },
    },
    events: {
      ...driver.events,
      find: async (name, options) => {
        await opened;
        return driver.events.find(name, options);
      },
    },
  });

  const claimOne = async (driver: Driver) => {
    await driver.enqueue({ name: 'stepper', queue: QUEUE, payload: null });
    const [job] = await driver.claim({
      queues: [QUEUE],
      workerId: WORKER,
      visibilityTimeoutMs: LEASE_MS,
    });
    if (job === undefined) throw new Error('nothing claimed');
    return job;
  };

  it('a sleep whose lookup was in flight when the attempt aborted writes no step', async () => {
    const { driver } = memoryOnManualClock();
    const job = await claimOne(driver);
    const lookup = gate();
    const controller = new AbortController();
    const step = createStepApi({
      driver: gatedSteps(driver, lookup.promise),
      job,
      fence: fenceOf(job),
      signal: controller.signal,
    });
    const sleeping = step.sleep('nap', 10_000);
    sleeping.catch(() => {});
    await settleTicks();
    const reason = new Error('the attempt timed out');
    controller.abort(reason);
    lookup.open();
    await expect(sleeping).rejects.toBe(reason);
    expect(await driver.steps.get(job.runId, 'nap')).toBeUndefined();
  });

  it('an event wait whose lookup was in flight when the attempt aborted writes no step', async () => {
    const { driver } = memoryOnManualClock();
    const job = await claimOne(driver);
    const lookup = gate();
    const controller = new AbortController();
    const step = createStepApi({
      driver: gatedSteps(driver, lookup.promise),
      job,
      fence: fenceOf(job),
      signal: controller.signal,
    });
    const waiting = step.waitForEvent('approval', { event: 'approved', timeout: 60_000 });
    waiting.catch(() => {});
    await settleTicks();
    const reason = new Error('the worker is draining');
    controller.abort(reason);
    lookup.open();
    await expect(waiting).rejects.toBe(reason);
    expect(await driver.steps.get(job.runId, 'approval')).toBeUndefined();
  });
});
