import { describe, expect, it } from 'vitest';
import { createClient, type Driver, defineJob } from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';
import { driveUntil, recordingLogger } from './support/runtime.js';
import { testWorkers } from './support/workers.js';

const VT = 3_000;
const { start: startWorker } = testWorkers({
  concurrency: 1,
  visibilityTimeoutMs: VT,
  pollIntervalMs: 100,
});

/** A job whose handler runs until its signal aborts. */
function untilAborted(onStart: () => void) {
  return defineJob({
    name: 'until-aborted',
    run: ({ signal }) =>
      new Promise<void>((resolve) => {
        onStart();
        signal.addEventListener('abort', () => resolve(), { once: true });
      }),
  });
}

describe('worker: what an aborted attempt logs', () => {
  it('a cancel of a running job is said at info, with no warning: it was meant', async () => {
    const { driver, clock } = memoryOnManualClock();
    const { lines, logger } = recordingLogger();
    let started = false;
    const job = untilAborted(() => {
      started = true;
    });
    const worker = await startWorker(driver, [job], { logger });
    const { id } = await createClient({ driver }).enqueue(job, null);
    await driveUntil(clock, () => started);
    await driver.cancel(id);
    await driveUntil(clock, () => lines.some((line) => line.message.includes('aborted')), {
      stepMs: 100,
      maxMs: VT,
    });
    await driveUntil(clock, () => worker.running() === 0);
    const aborted = lines.filter((line) => line.message.includes('aborted'));
    expect(aborted.map(({ level, message }) => ({ level, message }))).toEqual([
      { level: 'info', message: 'the attempt was aborted: the job was cancelled' },
    ]);
    expect(lines.filter((line) => line.level === 'warn')).toEqual([]);
  });

  it('a lease lost otherwise (a renewal refused while the row is not cancelled) is still a warning', async () => {
    const { driver, clock } = memoryOnManualClock();
    const { lines, logger } = recordingLogger();
    let started = false;
    const job = untilAborted(() => {
      started = true;
    });
    // Every renewal refused, as for a lease another worker took over: the row is not cancelled.
    const refusing: Driver = Object.create(driver, {
      extendMany: { value: async (items: readonly unknown[]) => items.map(() => false) },
    });
    const worker = await startWorker(refusing, [job], { logger });
    const { id } = await createClient({ driver }).enqueue(job, null);
    await driveUntil(clock, () => started);
    await driveUntil(clock, () => lines.some((line) => line.message.includes('aborted')), {
      stepMs: 100,
      maxMs: VT,
    });
    await driveUntil(clock, () => worker.running() === 0);
    expect(await driver.get(id)).toMatchObject({ state: 'running' });
    expect(
      lines
        .filter((line) => line.message.includes('aborted'))
        .map(({ level, message }) => ({ level, message })),
    ).toEqual([
      {
        level: 'warn',
        message: 'the attempt was aborted: its lease was lost (taken over, or settled elsewhere)',
      },
    ]);
  });
});
