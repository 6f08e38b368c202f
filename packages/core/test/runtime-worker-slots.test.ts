import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createClient,
  type Driver,
  defineJob,
  type SuspendReason,
  type Worker,
} from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';
import { driveToState, driveUntil, gate } from './support/runtime.js';
import { testWorkers } from './support/workers.js';
import { wrapDriver } from './support/wrap.js';

const workers = testWorkers({
  concurrency: 2,
  visibilityTimeoutMs: 30_000,
  pollIntervalMs: 50,
  keyBusyDelayMs: 100,
});
const makeWorker = (
  driver: Driver,
  jobs: Parameters<typeof workers.make>[1],
  options: { visibilityTimeoutMs?: number; concurrency?: number } = {},
) => workers.make(driver, jobs, options);

const suspendsOf = (worker: Worker) => {
  const reasons: SuspendReason[] = [];
  worker.on('suspended', ({ reason }) => reasons.push(reason));
  return reasons;
};

describe('worker: rate limits count starts, not resumes', () => {
  it('a 1 s sleep under a 1-per-10 s limit resumes when its sleep ends, never bounced', async () => {
    const { driver, clock } = memoryOnManualClock();
    const nap = defineJob({
      name: 'nap',
      rateLimit: { limit: 1, intervalMs: 10_000 },
      async run({ step }) {
        await step.sleep('nap', 1_000);
        return 'woke';
      },
    });
    const worker = makeWorker(driver, [nap]);
    const reasons = suspendsOf(worker);
    await worker.start();
    const { id } = await createClient({ driver }).enqueue(nap, null);
    await driveToState(driver, clock, id, 'suspended', { stepMs: 5 });
    const started = clock.now();
    const done = await driveToState(driver, clock, id, 'completed', { stepMs: 50 });
    expect(done.result).toBe('woke');
    // Its rate slot holds for 10 s; the resume did not wait for it.
    expect(clock.now() - started).toBeLessThanOrEqual(1_100);
    expect(reasons).toEqual(['step']);
  });
});

describe('worker: concurrency slots are held honestly', () => {
  it('a failed slot renewal aborts the attempt as a lost lease does, and hands the job back uncounted', async () => {
    const { driver, clock } = memoryOnManualClock();
    let slotGone = true;
    const stalled = wrapDriver(driver, {
      leases: {
        renewSlot: async (key, holder, ttl) =>
          slotGone ? false : driver.leases.renewSlot(key, holder, ttl),
      },
    });
    const seen: { attempt: number; resumed: boolean }[] = [];
    let reason: unknown;
    const sync = defineJob({
      name: 'sync',
      retry: { maxAttempts: 1 },
      concurrency: { limit: 1 },
      run: ({ signal, attempt, job }) => {
        seen.push({ attempt, resumed: job.resumed });
        if (seen.length > 1) return 'done';
        return new Promise<never>((_, reject) => {
          signal.addEventListener('abort', () => {
            reason = signal.reason;
            reject(signal.reason);
          });
        });
      },
    });
    const worker = makeWorker(stalled, [sync], { visibilityTimeoutMs: 3_000 });
    const lost: string[] = [];
    worker.on('lease-lost', ({ error }) => lost.push(error.code));
    const reasons = suspendsOf(worker);
    await worker.start();
    const { id } = await createClient({ driver }).enqueue(sync, null);
    await driveUntil(clock, () => seen.length === 1);
    // The first renewal (a third of the lease) finds the slot gone.
    await driveUntil(clock, () => reason !== undefined, { stepMs: 100, maxMs: 1_100 });
    expect(reason).toMatchObject({ code: 'JOB_ABORTED' });
    expect(lost).toEqual(['JOB_ABORTED']);
    slotGone = false;
    const done = await driveToState(driver, clock, id, 'completed', { stepMs: 10 });
    // Handed back at once; the resume may meet the old slot not yet released, and wait for it.
    expect(reasons[0]).toBe('slot-lost');
    // Its only attempt was not spent: the run resumed as attempt 1.
    expect(done).toMatchObject({ attempts: 1, result: 'done' });
    expect(seen).toEqual([
      { attempt: 1, resumed: false },
      { attempt: 1, resumed: true },
    ]);
  });

  it('a worker that wakes past its slot ttl (a stopped process) aborts the attempt before any renewal answers', async () => {
    const { driver, clock } = memoryOnManualClock();
    // Renewals never answer: only what the worker knows locally can end the attempt.
    const renewals: number[] = [];
    const silent = wrapDriver(driver, {
      top: {
        extendMany: (fences: readonly unknown[]) => {
          renewals.push(fences.length);
          return new Promise<never>(() => {});
        },
      },
    });
    let reason: unknown;
    let started = false;
    const sync = defineJob({
      name: 'sync',
      concurrency: { limit: 1 },
      run: ({ signal }) => {
        started = true;
        return new Promise<never>((_, reject) => {
          signal.addEventListener('abort', () => {
            reason = signal.reason;
            reject(signal.reason);
          });
        });
      },
    });
    const worker = makeWorker(silent, [sync], { visibilityTimeoutMs: 3_000 });
    await worker.start();
    await createClient({ driver }).enqueue(sync, null);
    await driveUntil(clock, () => started);
    // The process was stopped for longer than the slot's ttl: its first timer fires late.
    await clock.advance(3_001);
    await driveUntil(clock, () => reason !== undefined, { stepMs: 1, maxMs: 5 });
    expect(reason).toMatchObject({ code: 'JOB_ABORTED' });
    expect(renewals).toEqual([]);
  });

  it('keeps the slot until an aborted handler that ignores its signal really returns', async () => {
    const { driver, clock } = memoryOnManualClock();
    const stubborn = gate();
    const running = new Set<string>();
    let most = 0;
    const sync = defineJob({
      name: 'sync',
      schema: z.object({ n: z.number() }),
      concurrency: { limit: 1 },
      async run({ payload }) {
        running.add(`#${payload.n}`);
        most = Math.max(most, running.size);
        // The first ignores its signal and runs on until the test lets it go.
        if (payload.n === 1) await stubborn.promise;
        running.delete(`#${payload.n}`);
        return payload.n;
      },
    });
    const worker = makeWorker(driver, [sync], { visibilityTimeoutMs: 3_000 });
    await worker.start();
    const client = createClient({ driver });
    const first = await client.enqueue(sync, { n: 1 });
    await driveUntil(clock, () => running.has('#1'));
    await driver.cancel(first.id);
    const second = await client.enqueue(sync, { n: 2 });
    // Well past the abort (the next renewal finds the cancel) and several slot ttls' renewals.
    // The second waits for the slot, on this worker (running) or parked (suspended).
    await driveUntil(clock, async () => (await driver.get(second.id))?.state !== 'ready', {
      stepMs: 100,
    });
    const until = clock.now() + 10_000;
    await driveUntil(clock, () => clock.now() >= until, { stepMs: 100 });
    expect(running.has('#2')).toBe(false);
    stubborn.open();
    const done = await driveToState(driver, clock, second.id, 'completed', { stepMs: 10 });
    expect(done.result).toBe(2);
    expect(most).toBe(1);
  });

  it('a failure taking the slot hands the job back without spending an attempt', async () => {
    const { driver, clock } = memoryOnManualClock();
    let failures = 1;
    const flaky = wrapDriver(driver, {
      leases: {
        acquireSlot: async (key, limit, holder, ttl) => {
          if (failures > 0) {
            failures -= 1;
            throw new Error('connection reset');
          }
          return driver.leases.acquireSlot(key, limit, holder, ttl);
        },
      },
    });
    const attempts: number[] = [];
    const sync = defineJob({
      name: 'sync',
      retry: { maxAttempts: 1 },
      concurrency: { limit: 1 },
      run: ({ attempt }) => {
        attempts.push(attempt);
        return 'synced';
      },
    });
    const worker = makeWorker(flaky, [sync]);
    const reasons = suspendsOf(worker);
    await worker.start();
    const { id } = await createClient({ driver }).enqueue(sync, null);
    const done = await driveToState(driver, clock, id, 'completed', { stepMs: 10 });
    expect(done).toMatchObject({ attempts: 1, result: 'synced' });
    expect(attempts).toEqual([1]);
    expect(reasons).toEqual(['key-busy']);
  });
});
