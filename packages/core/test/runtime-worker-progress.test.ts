import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type ClaimedJob,
  createClient,
  type Driver,
  defineJob,
  type Fence,
  type JobContext,
  type Json,
  PROGRESS_INTERVAL_MS,
  type WorkerEvents,
} from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';
import { driveToState, driveUntil, gate, recordingLogger } from './support/runtime.js';
import { testWorkers } from './support/workers.js';
import { wrapDriver } from './support/wrap.js';

const workers = testWorkers({ concurrency: 1, visibilityTimeoutMs: 3_000, pollIntervalMs: 100 });
const startWorker = async (driver: Driver, jobs: Parameters<typeof workers.start>[1]) => {
  const log = recordingLogger();
  const worker = await workers.start(driver, jobs, { logger: log.logger });
  return { worker, lines: log.lines };
};

/** The memory driver with its progress writes counted (and optionally answered by `answer`). */
function counting(answer?: (fence: Fence, value: Json) => Promise<boolean>) {
  const { driver: inner, clock } = memoryOnManualClock();
  const writes: Json[] = [];
  const driver = wrapDriver(inner, {
    top: {
      progress: (fence: Fence, value: Json) => {
        writes.push(value);
        return answer === undefined ? inner.progress(fence, value) : answer(fence, value);
      },
    },
  });
  return { driver, clock, writes };
}

describe('worker: ctx.progress', () => {
  it('a job that never reports progress makes no progress write', async () => {
    const { driver, clock, writes } = counting();
    const quiet = defineJob({ name: 'quiet', run: () => 'ok' });
    await startWorker(driver, [quiet]);
    const { id } = await createClient({ driver }).enqueue(quiet, null);
    const record = await driveToState(driver, clock, id, 'completed');
    expect(writes).toEqual([]);
    expect(record.progress).toBeUndefined();
  });

  it('reports across intervals land throttled, the last one before the ack, each landed value emitted', async () => {
    const { driver, clock, writes } = counting();
    const steps = gate();
    const report = defineJob({
      name: 'report',
      run: async ({ progress }) => {
        for (let done = 1; done <= 10; done += 1) void progress({ done });
        await steps.promise;
        for (let done = 11; done <= 20; done += 1) void progress({ done });
        return 'ok';
      },
    });
    const { worker } = await startWorker(driver, [report]);
    const emitted: WorkerEvents['progress'][] = [];
    worker.on('progress', (event) => emitted.push(event));
    const { id } = await createClient({ driver }).enqueue(report, null);
    await clock.advance(0);
    const running = await driveToState(driver, clock, id, 'running');
    expect(running.progress).toEqual({ done: 1 });
    await clock.advance(PROGRESS_INTERVAL_MS);
    steps.open();
    const record = await driveToState(driver, clock, id, 'completed');
    expect(record.progress).toEqual({ done: 20 });
    expect(writes.length).toBeLessThanOrEqual(4);
    expect(writes[0]).toEqual({ done: 1 });
    expect(writes.at(-1)).toEqual({ done: 20 });
    expect(emitted.map((event) => event.value)).toEqual(writes);
    expect(emitted.every((event) => event.job.id === id)).toBe(true);
  });

  it('a refused progress write aborts the attempt as a lost lease, and nothing later lands', async () => {
    const { driver, clock } = counting(async () => false);
    const seen: { aborted?: unknown; answer?: boolean } = {};
    const refused = defineJob({
      name: 'refused',
      run: async ({ progress, signal }) => {
        seen.answer = await progress(1);
        seen.aborted = signal.reason;
        return 'ignored';
      },
    });
    const { worker } = await startWorker(driver, [refused]);
    const lost: string[] = [];
    worker.on('lease-lost', ({ error }) => lost.push(error.code));
    const { id } = await createClient({ driver }).enqueue(refused, null);
    await driveToState(driver, clock, id, 'running');
    await clock.advance(10);
    expect(seen.answer).toBe(false);
    expect(lost).toEqual(['JOB_ABORTED']);
    expect((await driver.get(id))?.state).toBe('running');
  });

  it('a progress write that fails is logged, never rejects in the handler, and the job completes', async () => {
    const { driver, clock } = counting(() => Promise.reject(new Error('backend down')));
    const ignores = defineJob({
      name: 'ignores',
      run: ({ progress }) => {
        void progress('x');
        return 'done';
      },
    });
    const { lines } = await startWorker(driver, [ignores]);
    const { id } = await createClient({ driver }).enqueue(ignores, null);
    expect((await driveToState(driver, clock, id, 'completed')).result).toBe('done');
    expect(lines.some((line) => line.message.includes('progress'))).toBe(true);
  });

  it('a drain writes the value reported within the interval before it hands the job back', async () => {
    const { driver, clock, writes } = counting();
    let reported = false;
    const long = defineJob({
      name: 'long',
      run: async ({ progress, signal }) => {
        void progress({ done: 1 });
        void progress({ done: 2 });
        reported = true;
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      },
    });
    const { worker } = await startWorker(driver, [long]);
    const { id } = await createClient({ driver }).enqueue(long, null);
    await driveUntil(clock, () => reported);
    const stopping = worker.stop({ graceMs: 0 });
    await driveUntil(clock, async () => (await driver.get(id))?.state !== 'running');
    await stopping;
    expect(writes).toEqual([{ done: 1 }, { done: 2 }]);
    expect(await driver.get(id)).toMatchObject({ attempts: 1, progress: { done: 2 } });
  });

  it('a progress value that is not JSON throws JOB_INVALID in the handler: the attempt fails with it', async () => {
    const { driver, clock, writes } = counting();
    const bad = defineJob({
      name: 'bad',
      retry: { maxAttempts: 1 },
      run: ({ progress }) => {
        void progress({ at: new Date(0) } as never);
      },
    });
    await startWorker(driver, [bad]);
    const { id } = await createClient({ driver }).enqueue(bad, null);
    const record = await driveToState(driver, clock, id, 'dead');
    expect(record.lastError?.code).toBe('JOB_INVALID');
    expect(writes).toEqual([]);
  });
});

describe('ctx.progress types', () => {
  it('takes JSON (interfaces too) and answers whether it landed', () => {
    interface Step {
      readonly done: number;
      readonly of: number;
      readonly stage?: string;
    }
    const step: Step = { done: 1, of: 2 };
    defineJob({
      name: 'typed-progress-ok',
      run: async ({ progress }) => {
        expectTypeOf(progress({ done: 1, of: 2 })).toEqualTypeOf<Promise<boolean>>();
        await progress(step);
        await progress('halfway');
        await progress(0.5);
        await progress(false);
        await progress(null);
        await progress([1, 'two', { three: 3 }]);
      },
    });
    expectTypeOf<ReturnType<JobContext<null>['progress']>>().toEqualTypeOf<Promise<boolean>>();
    expectTypeOf<WorkerEvents['progress']>().toEqualTypeOf<
      { readonly name: string } & {
        readonly job: ClaimedJob;
        readonly value: Json;
      }
    >();
  });

  it('refuses what JSON cannot carry: undefined, a Date, a Map, a function, a bigint', () => {
    defineJob({
      name: 'typed-progress',
      run: async ({ progress }) => {
        // @ts-expect-error undefined is no progress value
        await progress(undefined);
        // @ts-expect-error a Date does not come back from JSON
        await progress({ at: new Date() });
        // @ts-expect-error a Map is not JSON
        await progress(new Map<string, number>());
        // @ts-expect-error a function is not JSON
        await progress({ next: () => 1 });
        // @ts-expect-error a bigint is not JSON
        await progress(10n);
      },
    });
    expect(true).toBe(true);
  });
});
