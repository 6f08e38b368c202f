import { describe, expect, it } from 'vitest';
import { createClient, type Driver, defineJob, isBerthError } from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';
import { driveToState, driveUntil, gate, settleTicks } from './support/runtime.js';
import { testWorkers } from './support/workers.js';

const VT = 3_000;

const { start: startWorker } = testWorkers({
  concurrency: 1,
  visibilityTimeoutMs: VT,
  pollIntervalMs: 100,
});

describe('worker: leases', () => {
  it('renews the lease while the handler runs, so a long job is never re-claimed', async () => {
    const { driver, clock } = memoryOnManualClock();
    const release = gate();
    let runs = 0;
    const long = defineJob({
      name: 'long',
      run: async () => {
        runs += 1;
        await release.promise;
        return 'done';
      },
    });
    await startWorker(driver, [long]);
    const { id } = await createClient({ driver }).enqueue(long, null);
    await driveUntil(clock, () => runs === 1);
    for (let passed = 0; passed < VT * 5; passed += 500) {
      await clock.advance(500);
      await settleTicks();
      const row = await driver.get(id);
      expect(row?.visibleAt).toBeGreaterThan(clock.now());
    }
    // A second worker finds nothing to take: the lease holds.
    expect(
      await driver.claim({ queues: ['default'], workerId: 'other', visibilityTimeoutMs: VT }),
    ).toEqual([]);
    release.open();
    expect(await driveToState(driver, clock, id, 'completed')).toMatchObject({
      attempts: 1,
      result: 'done',
    });
    expect(runs).toBe(1);
  });

  it('aborts the handler with JOB_ABORTED when its lease is lost, and its later step writes land nothing', async () => {
    const { driver: inner, clock } = memoryOnManualClock();
    // The worker's backend stalls (renewals, and claims once its job runs) until the test lets
    // it go: the lease lapses and another worker takes the job.
    const stall = gate();
    let started = false;
    const driver: Driver = {
      ...inner,
      claim: async (input) => {
        if (started) await stall.promise;
        return inner.claim(input);
      },
      extend: async (fence, ms) => {
        await stall.promise;
        return inner.extend(fence, ms);
      },
      extendMany: async (fences, ms) => {
        await stall.promise;
        return inner.extendMany(fences, ms);
      },
    };
    const seen: { reason?: unknown; late?: unknown } = {};
    const stuck = defineJob({
      name: 'stuck',
      run: async ({ signal, step }) => {
        started = true;
        await new Promise<void>((resolve) =>
          signal.addEventListener('abort', () => resolve(), { once: true }),
        );
        seen.reason = signal.reason;
        try {
          await step.run('after-loss', () => 'late');
        } catch (error) {
          seen.late = isBerthError(error) ? error.code : String(error);
        }
      },
    });
    const worker = await startWorker(driver, [stuck]);
    const lost: unknown[] = [];
    worker.on('lease-lost', ({ error }) => lost.push(error.code));
    const { id, runId } = await createClient({ driver }).enqueue(stuck, null);
    await driveUntil(clock, () => started);
    await clock.advance(VT + 1);
    const [taken] = await inner.claim({
      queues: ['default'],
      workerId: 'thief',
      visibilityTimeoutMs: VT,
    });
    expect(taken?.id).toBe(id);
    stall.open();
    await driveUntil(clock, () => seen.late !== undefined);
    expect(seen.reason).toMatchObject({ code: 'JOB_ABORTED', meta: { jobId: id } });
    expect(seen.late).toBe('JOB_ABORTED');
    expect(lost).toEqual(['JOB_ABORTED']);
    expect(await inner.steps.list(runId)).toEqual([]);
    expect(await inner.get(id)).toMatchObject({
      state: 'running',
      claimedBy: 'thief',
      attempts: 2,
    });
  });

  it('starts no handler for a claim answered after its lease end minus the renewal margin, and gives nothing back', async () => {
    const { driver: inner, clock } = memoryOnManualClock();
    // The first claim that takes a job is answered late: past the point where a renewal could
    // still go out before the lease ends (a renewal every VT / 3, the default).
    let late = true;
    const calls: string[] = [];
    const driver: Driver = {
      ...inner,
      claim: async (input) => {
        const jobs = await inner.claim(input);
        if (late && jobs.length > 0) {
          late = false;
          await clock.advance(VT - VT / 3 + 1);
        }
        return jobs;
      },
      nack: (fence, options) => {
        calls.push('nack');
        return inner.nack(fence, options);
      },
      nackMany: (items) => {
        calls.push('nackMany');
        return inner.nackMany(items);
      },
    };
    const claims: number[] = [];
    const job = defineJob({
      name: 'answered-late',
      run: ({ job }) => {
        claims.push(job.claim);
        return 'done';
      },
    });
    const worker = await startWorker(driver, [job]);
    const lost: number[] = [];
    worker.on('lease-lost', ({ job }) => lost.push(job.claim));
    const { id } = await createClient({ driver }).enqueue(job, null);
    await driveUntil(clock, () => lost.length === 1);
    expect(claims).toEqual([]);
    // Nothing was given back: the row stays claimed until its lease lapses by itself.
    expect(await inner.get(id)).toMatchObject({ state: 'running', claim: 1 });
    expect(await driveToState(driver, clock, id, 'completed')).toMatchObject({ claim: 2 });
    expect(claims).toEqual([2]);
    expect(lost).toEqual([1]);
    expect(calls).toEqual([]);
  });

  it('aborts a running handler when the job is cancelled, and leaves it cancelled', async () => {
    const { driver, clock } = memoryOnManualClock();
    let started = false;
    let reason: unknown;
    const stuck = defineJob({
      name: 'cancellable',
      run: ({ signal }) =>
        new Promise<void>((resolve) => {
          started = true;
          signal.addEventListener(
            'abort',
            () => {
              reason = signal.reason;
              resolve();
            },
            { once: true },
          );
        }),
    });
    const worker = await startWorker(driver, [stuck]);
    const events: string[] = [];
    worker.on('lease-lost', () => events.push('lease-lost'));
    worker.on('completed', () => events.push('completed'));
    const { id } = await createClient({ driver }).enqueue(stuck, null);
    await driveUntil(clock, () => started);
    await driver.cancel(id);
    // The next renewal (a third of the lease) finds the fence gone.
    await driveUntil(clock, () => reason !== undefined, { stepMs: 100, maxMs: VT });
    expect(reason).toMatchObject({ code: 'JOB_ABORTED' });
    await driveUntil(clock, () => worker.running() === 0);
    expect(events).toEqual(['lease-lost']);
    expect(await driver.get(id)).toMatchObject({ state: 'cancelled' });
  });
});
