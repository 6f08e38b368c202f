import { describe, expect, it } from 'vitest';
import { createClient, type Driver, defineJob } from '../src/index.js';
import { heldRuns } from './support/held-runs.js';
import { memoryOnManualClock } from './support/memory.js';
import { driveUntil } from './support/runtime.js';
import { testWorkers } from './support/workers.js';
import { wrapDriver } from './support/wrap.js';

const { start: startWorker } = testWorkers({
  visibilityTimeoutMs: 30_000,
  pollIntervalMs: 50,
  keyBusyDelayMs: 100,
});

const statesOf = (driver: Driver, ids: readonly string[]) =>
  Promise.all(ids.map(async (id) => (await driver.get(id))?.state));

describe('worker: a concurrency slot passes to the next job of its key on the same worker', () => {
  it('a job whose key this worker holds waits for it locally, takes no worker slot, and gets the slot straight from the job that ends', async () => {
    const { driver, clock } = memoryOnManualClock();
    const calls = { claim: 0, acquireSlot: 0, releaseSlot: 0, suspend: 0 };
    const counted = wrapDriver(driver, {
      top: {
        claim: (request: never) => {
          calls.claim += 1;
          return driver.claim(request);
        },
        suspend: (fence: never, options: never) => {
          calls.suspend += 1;
          return driver.suspend(fence, options);
        },
      },
      leases: {
        acquireSlot: (...args) => {
          calls.acquireSlot += 1;
          return driver.leases.acquireSlot(...args);
        },
        releaseSlot: (...args) => {
          calls.releaseSlot += 1;
          return driver.leases.releaseSlot(...args);
        },
      },
    });
    const runs = heldRuns();
    const keyed = defineJob({
      name: 'keyed',
      concurrency: { limit: 1, key: () => 'same' },
      run: ({ job }) => runs.hold(job.id, 'same'),
    });
    const other = defineJob({ name: 'other', run: ({ job }) => runs.hold(job.id, 'other') });
    const worker = await startWorker(counted, [keyed, other], { workerId: 'w1', concurrency: 2 });
    const parked: string[] = [];
    worker.on('suspended', ({ job, reason }) => parked.push(`${job.name}:${reason}`));
    const client = createClient({ driver: counted });
    const first = await client.enqueue(keyed, null);
    await driveUntil(clock, () => runs.running.has(first.id));
    const second = await client.enqueue(keyed, null);
    await driveUntil(clock, async () => (await driver.get(second.id))?.state === 'running');
    // It waits claimed, running nothing: the other worker slot still takes other work.
    expect(worker.running()).toBe(1);
    const unrelated = await client.enqueue(other, null);
    await driveUntil(clock, () => runs.running.has(unrelated.id), { maxMs: 90 });
    const before = { ...calls };
    runs.running.get(first.id)?.();
    await driveUntil(clock, () => runs.running.has(second.id), { stepMs: 1, maxMs: 5 });
    // No release, no claim, no acquire between the two: the slot passed on in memory.
    expect(calls).toEqual(before);
    expect(parked).toEqual([]);
    expect(runs.most('same')).toBe(1);
    runs.finishAll();
    await driveUntil(clock, async () => (await driver.get(second.id))?.state === 'completed');
    expect(await driver.get(second.id)).toMatchObject({ attempts: 1 });
    // The last holder releases for real: one acquire and one release for the whole chain.
    await driveUntil(clock, () => calls.releaseSlot === 1);
    expect(calls.acquireSlot).toBe(1);
  });

  it('jobs waiting locally for their key go back to the queue as soon as the worker stops', async () => {
    const { driver, clock } = memoryOnManualClock();
    const runs = heldRuns();
    const keyed = defineJob({
      name: 'keyed',
      concurrency: { limit: 1, key: () => 'same' },
      run: ({ job }) => runs.hold(job.id, 'same'),
    });
    const worker = await startWorker(driver, [keyed], { workerId: 'w1', concurrency: 3 });
    const parked: string[] = [];
    worker.on('suspended', ({ job, reason }) => parked.push(`${job.name}:${reason}`));
    const client = createClient({ driver });
    const first = await client.enqueue(keyed, null);
    await driveUntil(clock, () => runs.running.has(first.id));
    const waiting = [
      (await client.enqueue(keyed, null)).id,
      (await client.enqueue(keyed, null)).id,
    ];
    await driveUntil(clock, async () => {
      const rows = await Promise.all(waiting.map((id) => driver.get(id)));
      return rows.every((row) => row?.state === 'running');
    });
    const stopping = worker.stop({ graceMs: 10_000 });
    await driveUntil(clock, () => parked.length === 2, { stepMs: 1, maxMs: 50 });
    expect(parked).toEqual(['keyed:key-busy', 'keyed:key-busy']);
    for (const id of waiting) {
      expect(await driver.get(id)).toMatchObject({ state: 'suspended', attempts: 1 });
    }
    runs.finishAll();
    await stopping;
    expect(await driver.get(first.id)).toMatchObject({ state: 'completed' });
  });

  it('with limit 2, two run and the rest wait locally: two acquires in all, never three at once', async () => {
    const { driver, clock } = memoryOnManualClock();
    let acquires = 0;
    const counted = wrapDriver(driver, {
      leases: {
        acquireSlot: (...args) => {
          acquires += 1;
          return driver.leases.acquireSlot(...args);
        },
      },
    });
    const runs = heldRuns();
    const pair = defineJob({
      name: 'pair',
      concurrency: { limit: 2, key: () => 'k' },
      run: ({ job }) => runs.hold(job.id, 'k'),
    });
    const client = createClient({ driver: counted });
    const ids = (
      await client.enqueueMany(Array.from({ length: 6 }, () => ({ job: pair, payload: null })))
    ).map((result) => result.id);
    await startWorker(counted, [pair], { workerId: 'w1', concurrency: 10 });
    await driveUntil(clock, () => runs.running.size === 2);
    for (let round = 0; round < 6 && runs.started.length < 6; round += 1) {
      runs.finish(runs.started.find((id) => runs.running.has(id)));
      await driveUntil(clock, () => runs.running.size === Math.min(2, 6 - round - 1), {
        stepMs: 1,
        maxMs: 5,
      });
    }
    runs.finishAll();
    await driveUntil(clock, async () =>
      (await statesOf(driver, ids)).every((state) => state === 'completed'),
    );
    expect(runs.most('k')).toBe(2);
    expect(acquires).toBe(2);
  });

  it('a prefetched job starts in the worker slot a job waiting locally for its key leaves free', async () => {
    const { driver, clock } = memoryOnManualClock();
    // Another holder takes one of the key's two slots: of this worker's two jobs of the key,
    // one gets the other slot and the one refused waits here for it.
    await driver.leases.acquireSlot('berth:concurrency:keyed:same', 2, 'elsewhere', 600_000);
    const runs = heldRuns();
    const keyed = defineJob({
      name: 'keyed',
      concurrency: { limit: 2, key: () => 'same' },
      run: ({ job }) => runs.hold(job.id, 'same'),
    });
    const other = defineJob({ name: 'other', run: ({ job }) => runs.hold(job.id, 'other') });
    const client = createClient({ driver });
    const ids = (
      await client.enqueueMany([
        { job: keyed, payload: null },
        { job: keyed, payload: null },
        { job: other, payload: null },
      ])
    ).map((result) => result.id);
    const unrelated = ids[2] ?? '';
    // One claim takes all three (short of the four it asked for: no claim follows until the
    // next poll): two start, the third waits in the prefetch buffer.
    const worker = await startWorker(driver, [keyed, other], {
      workerId: 'w1',
      concurrency: 2,
      prefetch: 2,
    });
    await driveUntil(clock, () => runs.running.has(unrelated), { maxMs: 20 });
    expect(runs.started).toHaveLength(2);
    expect(worker.running()).toBe(2);
    runs.finishAll();
    await driveUntil(clock, () => runs.started.length === 3);
    runs.finishAll();
    await driveUntil(clock, async () =>
      (await statesOf(driver, ids)).every((state) => state === 'completed'),
    );
    expect(runs.most('same')).toBe(1);
  });

  it('a job cancelled while it waits locally leaves the line; the slot goes to the next one', async () => {
    const { driver, clock } = memoryOnManualClock();
    const runs = heldRuns();
    const keyed = defineJob({
      name: 'keyed',
      concurrency: { limit: 1, key: () => 'same' },
      run: ({ job }) => runs.hold(job.id),
    });
    const client = createClient({ driver });
    const ids = (
      await client.enqueueMany(Array.from({ length: 3 }, () => ({ job: keyed, payload: null })))
    ).map((result) => result.id);
    const worker = await startWorker(driver, [keyed], {
      workerId: 'w1',
      concurrency: 5,
      visibilityTimeoutMs: 3_000,
    });
    await driveUntil(clock, () => runs.running.size === 1);
    const first = runs.started[0] ?? '';
    const cancelled = ids.find((id) => id !== first) ?? '';
    // All three claimed; one runs, two wait on this worker.
    expect(await statesOf(driver, ids)).toEqual(['running', 'running', 'running']);
    expect(worker.running()).toBe(1);
    await driver.cancel(cancelled);
    // Its lease renewal (every second here) finds the cancel: it stops waiting.
    await clock.advance(1_500);
    runs.finish(first);
    const next = ids.find((id) => id !== first && id !== cancelled) ?? '';
    await driveUntil(clock, () => runs.running.has(next));
    runs.finishAll();
    await driveUntil(clock, async () => (await driver.get(next))?.state === 'completed');
    expect(runs.started).toEqual([first, next]);
    expect(await driver.get(cancelled)).toMatchObject({ state: 'cancelled' });
  });

  it('a job handed the slot whose rate limit is full passes the slot on and waits out the limit', async () => {
    const { driver, clock } = memoryOnManualClock();
    const starts: number[] = [];
    let now = 0;
    let most = 0;
    const limited = defineJob({
      name: 'limited',
      concurrency: { limit: 1, key: () => 'same' },
      rateLimit: { limit: 2, intervalMs: 1_000 },
      run: async () => {
        starts.push(clock.now());
        now += 1;
        most = Math.max(most, now);
        await Promise.resolve();
        now -= 1;
      },
    });
    const client = createClient({ driver });
    const ids = (
      await client.enqueueMany(Array.from({ length: 3 }, () => ({ job: limited, payload: null })))
    ).map((result) => result.id);
    const t0 = clock.now();
    await startWorker(driver, [limited], { workerId: 'w1', concurrency: 5 });
    await driveUntil(
      clock,
      async () => (await statesOf(driver, ids)).every((state) => state === 'completed'),
      { stepMs: 25, maxMs: 3_000 },
    );
    expect(most).toBe(1);
    expect(starts.length).toBe(3);
    // Two start at once through the hand-over; the third only once the interval has passed.
    expect((starts[1] ?? 0) - t0).toBeLessThan(25);
    expect((starts[2] ?? 0) - t0).toBeGreaterThanOrEqual(1_000);
    const rows = await Promise.all(ids.map((id) => driver.get(id)));
    expect(rows.map((row) => row?.attempts)).toEqual([1, 1, 1]);
  });
});

describe('worker: a slot handed on is never stranded', () => {
  it('a job whose rate key throws after it was handed the slot fails, and the slot goes on to the next', async () => {
    const { driver, clock } = memoryOnManualClock();
    const ran: number[] = [];
    const picky = defineJob({
      name: 'picky',
      retry: { maxAttempts: 1 },
      concurrency: { limit: 1, key: () => 'same' },
      rateLimit: {
        limit: 100,
        intervalMs: 1_000,
        key: (payload: number) => {
          if (payload === 2) throw new Error('no rate key for 2');
          return 'all';
        },
      },
      run: async ({ payload }) => {
        ran.push(payload);
        await Promise.resolve();
      },
    });
    const client = createClient({ driver });
    const ids = (
      await client.enqueueMany([1, 2, 3].map((payload) => ({ job: picky, payload })))
    ).map((result) => result.id);
    await startWorker(driver, [picky], { workerId: 'w1', concurrency: 5 });
    await driveUntil(clock, async () => {
      const states = await statesOf(driver, ids);
      return states.every((state) => state === 'completed' || state === 'dead');
    });
    expect(await statesOf(driver, ids)).toEqual(['completed', 'dead', 'completed']);
    expect(ran).toEqual([1, 3]);
  });
});
