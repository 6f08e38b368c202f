import { describe, expect, it } from 'vitest';
import { createStepApi, type Driver } from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';
import { gate, settleTicks } from './support/runtime.js';
import { fenceOf, LEASE_MS, QUEUE, WORKER } from './support/step-attempt.js';

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

  /** A claimed job's step API whose lookups wait for `lookup`, and the signal that aborts it. */
  const abortableSteps = async () => {
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
    return { driver, job, lookup, controller, step };
  };

  it('a sleep whose lookup was in flight when the attempt aborted writes no step', async () => {
    const { driver, job, lookup, controller, step } = await abortableSteps();
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
    const { driver, job, lookup, controller, step } = await abortableSteps();
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
