import { describe, expect, it } from 'vitest';
import { createClient, type Driver, defineJob, type ManualClock } from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';
import { driveToState, driveUntil, gate, settleTicks } from './support/runtime.js';
import { testWorkers } from './support/workers.js';

const VT = 3_000;
const RENEW = 1_000;

const { start: startWorker } = testWorkers({
  concurrency: 1,
  visibilityTimeoutMs: VT,
  renewIntervalMs: RENEW,
  pollIntervalMs: 60_000,
});

/** The driver with its clock's timers and its lease renewals counted. */
function counted(inner: Driver, clock: ManualClock) {
  const seen = { timers: 0, extends: [] as number[], batches: [] as number[] };
  const countingClock = {
    now: () => clock.now(),
    setTimeout: (fn: () => void, ms: number) => {
      seen.timers += 1;
      return clock.setTimeout(fn, ms);
    },
  };
  const driver: Driver = {
    ...inner,
    clock: countingClock,
    extend: (fence, ms) => {
      seen.extends.push(clock.now());
      return inner.extend(fence, ms);
    },
    extendMany: (fences, ms) => {
      seen.batches.push(fences.length);
      return inner.extendMany(fences, ms);
    },
  };
  return { driver, seen };
}

/** `count` no-op jobs queued on a memory driver whose claims' limits are recorded. */
async function quickJobsQueued(count: number) {
  const { driver: inner, clock } = memoryOnManualClock();
  const limits: number[] = [];
  const driver: Driver = {
    ...inner,
    claim: (request) => {
      limits.push(request.limit ?? 1);
      return inner.claim(request);
    },
  };
  let runs = 0;
  const quick = defineJob({
    name: 'quick',
    run: async () => {
      runs += 1;
    },
  });
  const client = createClient({ driver });
  for (let i = 0; i < count; i += 1) await client.enqueue(quick, i);
  return { driver, clock, limits, quick, ran: () => runs };
}

describe('worker: the pipeline', () => {
  it('renews every running job on one timer: one extendMany carrying every job per tick, no timer per job', async () => {
    const { driver: inner, clock } = memoryOnManualClock();
    const { driver, seen } = counted(inner, clock);
    const release = gate();
    let started = 0;
    const long = defineJob({
      name: 'long',
      run: async () => {
        started += 1;
        await release.promise;
      },
    });
    const client = createClient({ driver });
    const ids: string[] = [];
    for (let i = 0; i < 50; i += 1) ids.push((await client.enqueue(long, i)).id);
    await startWorker(driver, [long], { concurrency: 50 });
    await driveUntil(clock, () => started === 50, { stepMs: 1 });
    const timersBefore = seen.timers;
    for (let tick = 0; tick < 3; tick += 1) {
      await clock.advance(RENEW);
      await settleTicks();
    }
    // Three renewal periods: all 50 jobs renewed in one driver call per tick, none one by one.
    expect(seen.batches).toEqual([50, 50, 50]);
    expect(seen.extends).toEqual([]);
    // One timer per tick, not one per job (the old keeper armed 50 per tick).
    expect(seen.timers - timersBefore).toBeLessThanOrEqual(3);
    for (const id of ids) {
      expect((await inner.get(id))?.visibleAt).toBeGreaterThan(clock.now());
    }
    release.open();
    await driveToState(inner, clock, ids[49] as string, 'completed');
  });

  it('frees the worker slot when the handler returns, while its ack waits in a batch behind it', async () => {
    const { driver: inner, clock } = memoryOnManualClock();
    const hold = gate();
    let acks = 0;
    const driver: Driver = {
      ...inner,
      ackMany: async (items) => {
        acks += 1;
        await hold.promise;
        return inner.ackMany(items);
      },
    };
    const runs: number[] = [];
    const quick = defineJob<number>({
      name: 'quick',
      run: async ({ payload }) => {
        runs.push(payload);
      },
    });
    const client = createClient({ driver });
    const first = await client.enqueue(quick, 1);
    const second = await client.enqueue(quick, 2);
    const worker = await startWorker(driver, [quick], { concurrency: 1 });
    const completed: string[] = [];
    worker.on('completed', ({ job }) => completed.push(job.id));
    // The first ack is held, yet the second job ran in the one slot.
    await driveUntil(clock, () => runs.length === 2 && acks >= 1);
    expect(runs).toEqual([1, 2]);
    expect(completed).toEqual([]);
    expect(await inner.get(first.id)).toMatchObject({ state: 'running' });
    hold.open();
    await driveUntil(clock, () => completed.length === 2);
    expect(await inner.get(first.id)).toMatchObject({ state: 'completed' });
    expect(await inner.get(second.id)).toMatchObject({ state: 'completed' });
  });

  it('stops claiming while more than one round of acks is still out: a hung ackMany holds it back', async () => {
    const { driver: inner, clock } = memoryOnManualClock();
    const hold = gate();
    const driver: Driver = {
      ...inner,
      ackMany: async (items) => {
        await hold.promise;
        return inner.ackMany(items);
      },
    };
    let runs = 0;
    const quick = defineJob({
      name: 'quick',
      run: async () => {
        runs += 1;
      },
    });
    const client = createClient({ driver });
    for (let i = 0; i < 10; i += 1) await client.enqueue(quick, i);
    const worker = await startWorker(driver, [quick], { concurrency: 2 });
    let completed = 0;
    worker.on('completed', () => {
      completed += 1;
    });
    await driveUntil(clock, () => runs >= 4);
    // Two finished jobs may wait on their ack while two more run; then claims wait for acks.
    for (let step = 0; step < 20; step += 1) {
      await clock.advance(100);
      await settleTicks();
    }
    expect(runs).toBe(4);
    hold.open();
    await driveUntil(clock, () => completed === 10);
    expect(runs).toBe(10);
  });

  it('prefetches: claims ahead of its free slots, keeps the buffered leases, hands them back on stop', async () => {
    const { driver, clock } = memoryOnManualClock();
    const release = gate();
    const runs: number[] = [];
    const job = defineJob<number>({
      name: 'buffered',
      run: async ({ payload }) => {
        runs.push(payload);
        await release.promise;
      },
    });
    const client = createClient({ driver });
    const ids: string[] = [];
    for (let i = 0; i < 4; i += 1) ids.push((await client.enqueue(job, i)).id);
    const worker = await startWorker(driver, [job], { concurrency: 1, prefetch: 2 });
    await driveUntil(clock, () => runs.length === 1);
    const states = async () => Promise.all(ids.map(async (id) => (await driver.get(id))?.state));
    // One runs, two wait in the buffer (claimed), one is left for other workers.
    expect(await states()).toEqual(['running', 'running', 'running', 'ready']);
    expect(worker.running()).toBe(1);
    // Past two leases: the buffered jobs' leases were renewed too, so nobody else can take them.
    for (let passed = 0; passed < VT * 2; passed += 500) {
      await clock.advance(500);
      await settleTicks();
    }
    const stolen = await driver.claim({
      queues: ['default'],
      workerId: 'other',
      visibilityTimeoutMs: VT,
      limit: 4,
    });
    expect(stolen.map((row) => row.id)).toEqual([ids[3]]);
    const stopping = worker.stop({ graceMs: 10_000 });
    await settleTicks();
    release.open();
    await stopping;
    expect(runs).toEqual([0]);
    // Handed back due now, their attempt not counted: the next claim is a resume.
    const back = await driver.claim({
      queues: ['default'],
      workerId: 'next',
      visibilityTimeoutMs: VT,
      limit: 4,
    });
    expect(back.map((row) => [row.id, row.attempts, row.resumed])).toEqual([
      [ids[1], 1, true],
      [ids[2], 1, true],
    ]);
    expect(await driver.get(ids[0] as string)).toMatchObject({ state: 'completed' });
  });

  it('refills the prefetch buffer in batches of at least half of it, not a claim per freed slot', async () => {
    const { driver, clock, limits, quick, ran } = await quickJobsQueued(24);
    await startWorker(driver, [quick], { concurrency: 1, prefetch: 4 });
    await driveUntil(clock, () => ran() === 24);
    // Every claim asked for at least half the buffer (2 of 4), so 24 jobs took at most 12.
    expect(Math.min(...limits)).toBeGreaterThanOrEqual(2);
    expect(limits.length).toBeLessThanOrEqual(12);
  });

  it('claims the slots a landed settle batch frees in one claim, not one job first and the rest behind it', async () => {
    const { driver, clock, limits, quick, ran } = await quickJobsQueued(40);
    await startWorker(driver, [quick], { concurrency: 4 });
    await driveUntil(clock, () => ran() === 40);
    // Each batch of four acks frees four slots at once: every claim but the last asks for four.
    expect(limits.slice(0, 10)).toEqual(Array.from({ length: 10 }, () => 4));
  });

  it('with more free places than one claim may take, claims again at once after a full claim, not at the next poll', async () => {
    const { driver: inner, clock } = memoryOnManualClock();
    const limits: number[] = [];
    const driver: Driver = {
      ...inner,
      claim: (request) => {
        limits.push(request.limit ?? 1);
        return inner.claim(request);
      },
    };
    let runs = 0;
    const quick = defineJob<number>({
      name: 'quick',
      run: async () => {
        runs += 1;
      },
    });
    const client = createClient({ driver });
    for (let batch = 0; batch < 3; batch += 1) {
      await client.enqueueMany(
        Array.from({ length: 1_000 }, (_, i) => ({ job: quick, payload: i })),
      );
    }
    // 600 slots and 600 buffered: 1 200 free places, more than MAX_CLAIM_BATCH (1 000).
    await startWorker(driver, [quick], { concurrency: 600, prefetch: 600 });
    // The poll interval is a minute: only claims that follow each other reach 3 000 this soon.
    await driveUntil(clock, () => runs === 3_000, { maxMs: 5_000 });
    expect(Math.max(...limits)).toBe(1_000);
  });

  it('gives a handler that reads its signal late one already aborted', async () => {
    const { driver, clock } = memoryOnManualClock();
    const release = gate();
    let seen: { aborted: boolean; reason: unknown } | undefined;
    const slow = defineJob({
      name: 'slow',
      timeout: 100,
      run: async (context) => {
        await release.promise;
        seen = { aborted: context.signal.aborted, reason: context.signal.reason };
      },
    });
    const worker = await startWorker(driver, [slow]);
    const { id } = await createClient({ driver }).enqueue(slow, null);
    await driveUntil(clock, () => worker.running() === 1);
    await clock.advance(150);
    await settleTicks();
    release.open();
    await driveUntil(clock, () => seen !== undefined);
    expect(seen).toMatchObject({ aborted: true, reason: { code: 'JOB_TIMEOUT' } });
    await driveUntil(clock, async () => (await driver.get(id))?.lastError?.code === 'JOB_TIMEOUT');
  });
});
