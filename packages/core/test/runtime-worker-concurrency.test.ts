import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createClient, defineJob } from '../src/index.js';
import { heldRuns } from './support/held-runs.js';
import { memoryOnManualClock } from './support/memory.js';
import { driveUntil } from './support/runtime.js';
import { testWorkers } from './support/workers.js';

const { start: startWorker } = testWorkers({
  visibilityTimeoutMs: 30_000,
  pollIntervalMs: 50,
  keyBusyDelayMs: 100,
});

describe('worker: fleet-wide concurrency', () => {
  it('runs at most limit jobs per key across two workers, other keys alongside', async () => {
    const { driver, clock } = memoryOnManualClock();
    const runs = heldRuns();
    const sync = defineJob({
      name: 'sync',
      schema: z.object({ account: z.string(), n: z.number() }),
      concurrency: { limit: 1, key: (payload) => payload.account },
      run: ({ payload, job }) => runs.hold(job.id, payload.account),
    });
    await startWorker(driver, [sync], { workerId: 'w1', concurrency: 2 });
    await startWorker(driver, [sync], { workerId: 'w2', concurrency: 2 });
    const client = createClient({ driver });
    const ids: string[] = [];
    for (const [account, n] of [
      ['a', 1],
      ['a', 2],
      ['a', 3],
      ['b', 1],
    ] as const) {
      ids.push((await client.enqueue(sync, { account, n })).id);
    }
    await driveUntil(clock, () => runs.running.size === 2, { stepMs: 10 });
    await clock.advance(500);
    expect(runs.running.size).toBe(2);
    expect([runs.most('a'), runs.most('b')]).toEqual([1, 1]);
    for (let round = 0; round < 10; round += 1) {
      runs.finishAll();
      await clock.advance(150);
    }
    await driveUntil(
      clock,
      async () => {
        const rows = await Promise.all(ids.map((id) => driver.get(id)));
        return rows.every((row) => row?.state === 'completed');
      },
      { stepMs: 50 },
    );
    expect([runs.most('a'), runs.most('b')]).toEqual([1, 1]);
    // A busy bounce is no attempt.
    const rows = await Promise.all(ids.map((id) => driver.get(id)));
    expect(rows.map((row) => row?.attempts)).toEqual([1, 1, 1, 1]);
  });

  it('parks a job whose key another worker holds, without holding a worker slot', async () => {
    const { driver, clock } = memoryOnManualClock();
    const runs = heldRuns();
    const keyed = defineJob({
      name: 'keyed',
      concurrency: { limit: 1, key: () => 'same' },
      run: ({ job }) => runs.hold(job.id, 'same'),
    });
    const other = defineJob({ name: 'other', run: ({ job }) => runs.hold(job.id, 'other') });
    const client = createClient({ driver });
    // w2 runs the first job and has no room left: the second can only go to w1.
    await startWorker(driver, [keyed, other], { workerId: 'w2', concurrency: 1 });
    const first = await client.enqueue(keyed, null);
    await driveUntil(clock, () => runs.running.has(first.id));
    const worker = await startWorker(driver, [keyed, other], { workerId: 'w1', concurrency: 2 });
    const parked: string[] = [];
    worker.on('suspended', ({ job, reason }) => parked.push(`${job.name}:${reason}`));
    const second = await client.enqueue(keyed, null);
    await driveUntil(clock, () => parked.length > 0);
    expect(await driver.get(second.id)).toMatchObject({ state: 'suspended', attempts: 1 });
    // The second slot is free for other work while the keyed job waits.
    const unrelated = await client.enqueue(other, null);
    await driveUntil(clock, () => runs.running.has(unrelated.id), { maxMs: 90 });
    expect(parked[0]).toBe('keyed:key-busy');
    runs.running.get(first.id)?.();
    await driveUntil(clock, () => runs.running.has(second.id), { stepMs: 20 });
    runs.finishAll();
    await driveUntil(clock, async () => (await driver.get(second.id))?.state === 'completed');
    expect(await driver.get(second.id)).toMatchObject({ attempts: 1 });
  });

  it('a plain concurrency number limits the job across the fleet', async () => {
    const { driver, clock } = memoryOnManualClock();
    const runs = heldRuns();
    const capped = defineJob({
      name: 'capped',
      concurrency: 2,
      run: ({ job }) => runs.hold(job.id, 'all'),
    });
    await startWorker(driver, [capped], { workerId: 'w1', concurrency: 3 });
    await startWorker(driver, [capped], { workerId: 'w2', concurrency: 3 });
    const client = createClient({ driver });
    for (let n = 0; n < 5; n += 1) await client.enqueue(capped, n);
    await driveUntil(clock, () => runs.running.size === 2, { stepMs: 10 });
    await clock.advance(1_000);
    expect(runs.most('all')).toBe(2);
  });
});

describe('worker: rate limits', () => {
  it('starts at most limit attempts per interval across the fleet', async () => {
    const { driver, clock } = memoryOnManualClock();
    const starts: number[] = [];
    const limited = defineJob({
      name: 'limited',
      rateLimit: { limit: 2, intervalMs: 1_000 },
      run: () => {
        starts.push(clock.now());
      },
    });
    await startWorker(driver, [limited], { workerId: 'w1', concurrency: 3 });
    await startWorker(driver, [limited], { workerId: 'w2', concurrency: 3 });
    const client = createClient({ driver });
    const ids: string[] = [];
    for (let n = 0; n < 6; n += 1) ids.push((await client.enqueue(limited, n)).id);
    await driveUntil(clock, () => starts.length === 6, { stepMs: 25 });
    for (const start of starts) {
      expect(
        starts.filter((other) => other >= start && other < start + 1_000).length,
      ).toBeLessThanOrEqual(2);
    }
    expect((starts.at(-1) ?? 0) - (starts[0] ?? 0)).toBeGreaterThanOrEqual(2_000);
    await driveUntil(clock, async () =>
      (await Promise.all(ids.map((id) => driver.get(id)))).every(
        (row) => row?.state === 'completed',
      ),
    );
    const rows = await Promise.all(ids.map((id) => driver.get(id)));
    expect(rows.map((row) => row?.attempts)).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it('limits per key when the rate limit names one', async () => {
    const { driver, clock } = memoryOnManualClock();
    const starts: string[] = [];
    const perTenant = defineJob({
      name: 'per-tenant',
      schema: z.object({ tenant: z.string() }),
      rateLimit: { limit: 1, intervalMs: 10_000, key: (payload) => payload.tenant },
      run: ({ payload }) => {
        starts.push(payload.tenant);
      },
    });
    await startWorker(driver, [perTenant], { workerId: 'w1', concurrency: 4 });
    const client = createClient({ driver });
    for (const tenant of ['a', 'a', 'b', 'b']) await client.enqueue(perTenant, { tenant });
    await driveUntil(clock, () => starts.length === 2, { stepMs: 25 });
    await clock.advance(5_000);
    expect([...starts].sort()).toEqual(['a', 'b']);
    await driveUntil(clock, () => starts.length === 4, { stepMs: 100 });
    expect([...starts].sort()).toEqual(['a', 'a', 'b', 'b']);
  });
});
