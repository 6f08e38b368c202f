import { describe, expect, it } from 'vitest';
import { createClient, type Driver, defineJob } from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';
import { driveUntil, gate, settleTicks } from './support/runtime.js';
import { testWorkers } from './support/workers.js';

const workers = testWorkers({
  concurrency: 2,
  visibilityTimeoutMs: 30_000,
  pollIntervalMs: 60_000,
});
const makeWorker = (driver: Driver, jobs: Parameters<typeof workers.make>[1], workerId: string) =>
  workers.make(driver, jobs, { workerId });

describe('worker: graceful drain', () => {
  it('stops claiming and lets a running job finish within the grace', async () => {
    const { driver, clock } = memoryOnManualClock();
    const release = gate();
    const runs: string[] = [];
    const job = defineJob({
      name: 'finishing',
      run: async ({ signal, payload }) => {
        runs.push(String(payload));
        await release.promise;
        return signal.aborted ? 'aborted' : 'finished';
      },
    });
    const worker = makeWorker(driver, [job], 'a');
    await worker.start();
    const client = createClient({ driver });
    const { id } = await client.enqueue(job, 'first');
    await driveUntil(clock, () => runs.length === 1);
    let stopped = false;
    const stopping = worker.stop({ graceMs: 5_000 }).then(() => {
      stopped = true;
    });
    const late = await client.enqueue(job, 'second');
    await clock.advance(1_000);
    await settleTicks();
    expect(stopped).toBe(false);
    release.open();
    await stopping;
    expect(await driver.get(id)).toMatchObject({ state: 'completed', result: 'finished' });
    expect(runs).toEqual(['first']);
    expect(await driver.get(late.id)).toMatchObject({ state: 'ready', attempts: 0 });
    expect(clock.pending()).toBe(0);
  });

  it('after the grace aborts the handler with WORKER_DRAINING and hands the job back, attempt not counted', async () => {
    const { driver, clock } = memoryOnManualClock();
    const seen: { attempt: number; resumed: boolean; worker: string }[] = [];
    let reason: unknown;
    const job = defineJob({
      name: 'hanging',
      retry: { maxAttempts: 1 },
      run: ({ signal, attempt, job: row }) => {
        seen.push({ attempt, resumed: row.resumed, worker: row.claimedBy });
        if (row.claimedBy === 'b') return 'finished elsewhere';
        return new Promise<never>(() => {
          signal.addEventListener('abort', () => {
            reason = signal.reason;
          });
        });
      },
    });
    const a = makeWorker(driver, [job], 'a');
    await a.start();
    const { id } = await createClient({ driver }).enqueue(job, null);
    await driveUntil(clock, () => seen.length === 1);
    // Worker b starts only now, so only a wake can bring it the handed-back job.
    const b = makeWorker(driver, [job], 'b');
    const suspended: string[] = [];
    a.on('suspended', ({ reason: why }) => suspended.push(why));
    let stopped = false;
    const stopping = a.stop({ graceMs: 2_000 }).then(() => {
      stopped = true;
    });
    await b.start();
    // Handed back at a tenth of the grace before its end, so the hand-back lands within it.
    await clock.advance(1_799);
    await settleTicks();
    expect(stopped).toBe(false);
    expect(reason).toBeUndefined();
    await clock.advance(1);
    await stopping;
    expect(reason).toMatchObject({ code: 'WORKER_DRAINING', meta: { jobId: id, graceMs: 2_000 } });
    expect(suspended).toEqual(['drain']);
    // Its final attempt was drained, not spent: b runs it as the same attempt and it completes.
    // Taken at once through the wake: b polls only once a minute, and 50 ms of clock passes here.
    await driveUntil(clock, async () => (await driver.get(id))?.state === 'completed', {
      stepMs: 1,
      maxMs: 50,
    });
    expect(seen).toEqual([
      { attempt: 1, resumed: false, worker: 'a' },
      { attempt: 1, resumed: true, worker: 'b' },
    ]);
    expect(await driver.get(id)).toMatchObject({ attempts: 1, result: 'finished elsewhere' });
  });

  it('with no grace hands running jobs back at once', async () => {
    const { driver, clock } = memoryOnManualClock();
    let started = false;
    const job = defineJob({
      name: 'abandoned',
      run: () => {
        started = true;
        return new Promise<never>(() => {});
      },
    });
    const worker = makeWorker(driver, [job], 'a');
    await worker.start();
    const { id } = await createClient({ driver }).enqueue(job, null);
    await driveUntil(clock, () => started);
    await worker.stop({ graceMs: 0 });
    expect(await driver.get(id)).toMatchObject({ state: 'ready', attempts: 1 });
    expect(worker.running()).toBe(0);
  });

  it('a stop that comes while start is subscribing leaves the worker claiming nothing', async () => {
    const { driver, clock } = memoryOnManualClock();
    let ran = false;
    const job = defineJob({
      name: 'never',
      run: () => {
        ran = true;
      },
    });
    const worker = makeWorker(driver, [job], 'a');
    const starting = worker.start();
    await worker.stop({ graceMs: 0 });
    await starting;
    const { id } = await createClient({ driver }).enqueue(job, null);
    await clock.advance(120_000);
    await settleTicks();
    expect(ran).toBe(false);
    expect(await driver.get(id)).toMatchObject({ state: 'ready', attempts: 0 });
    expect(clock.pending()).toBe(0);
    await expect(worker.start()).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
  });
});
