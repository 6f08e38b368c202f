import { describe, it } from 'vitest';
import { createClient, defineJob } from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';
import { driveToState, driveUntil } from './support/runtime.js';
import { testWorkers } from './support/workers.js';

const { start: startWorker } = testWorkers({
  workerId: 'stop-grace',
  concurrency: 2,
  visibilityTimeoutMs: 30_000,
  pollIntervalMs: 50,
  keyBusyDelayMs: 100,
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
