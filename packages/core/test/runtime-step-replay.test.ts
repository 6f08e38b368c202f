import { afterEach, describe, expect, it } from 'vitest';
import { createClient, createWorker, type Driver, defineJob, type Worker } from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';
import { driveToState, recordingLogger } from './support/runtime.js';

const workers: Worker[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop({ graceMs: 0 })));
});

/** The driver with its step reads counted. */
function countingSteps(driver: Driver) {
  const calls = { get: 0, list: 0 };
  const counted: Driver = {
    ...driver,
    steps: {
      ...driver.steps,
      get: (runId, name) => {
        calls.get += 1;
        return driver.steps.get(runId, name);
      },
      list: (runId) => {
        calls.list += 1;
        return driver.steps.list(runId);
      },
    },
  };
  return { counted, calls };
}

describe('step replay', () => {
  it('reads the stored steps with one steps.list per attempt, never a steps.get per step', async () => {
    const { driver, clock } = memoryOnManualClock();
    const { counted, calls } = countingSteps(driver);
    const ran: string[] = [];
    const SLEEPS = 8;
    const STEPS_PER_LEG = 10;
    const long = defineJob({
      name: 'long',
      async run({ step }) {
        for (let leg = 0; leg < SLEEPS; leg += 1) {
          for (let n = 0; n < STEPS_PER_LEG; n += 1) {
            await step.run(`leg-${leg}-step-${n}`, () => {
              ran.push(`${leg}.${n}`);
            });
          }
          await step.sleep(`nap-${leg}`, 1_000);
        }
        return 'done';
      },
    });
    const worker = createWorker({
      driver: counted,
      jobs: [long],
      concurrency: 1,
      visibilityTimeoutMs: 30_000,
      pollIntervalMs: 50,
      logger: recordingLogger().logger,
    });
    workers.push(worker);
    await worker.start();
    const { id } = await createClient({ driver }).enqueue(long, null);
    const done = await driveToState(driver, clock, id, 'completed', { stepMs: 50 });

    expect(done.result).toBe('done');
    // Each step function ran once, though the run replayed its steps on every resume.
    expect(ran).toHaveLength(SLEEPS * STEPS_PER_LEG);
    expect(calls.get).toBe(0);
    // The first attempt and one resume per sleep: each read the run's steps once.
    expect(calls.list).toBe(SLEEPS + 1);
  });
});
