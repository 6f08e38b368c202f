import { describe, expect, it } from 'vitest';
import {
  createClient,
  type Driver,
  defineJob,
  type JobRecord,
  type SettledOutcome,
} from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';
import { driveToState, driveUntil, gate, recordingLogger, settleTicks } from './support/runtime.js';
import { testWorkers } from './support/workers.js';

/** The memory driver, counting settle calls. */
function countingDriver(inner: Driver) {
  const calls: { op: string; size: number }[] = [];
  const driver: Driver = {
    ...inner,
    ack: (fence, options) => {
      calls.push({ op: 'ack', size: 1 });
      return inner.ack(fence, options);
    },
    nack: (fence, options) => {
      calls.push({ op: 'nack', size: 1 });
      return inner.nack(fence, options);
    },
    ackMany: (items) => {
      calls.push({ op: 'ackMany', size: items.length });
      return inner.ackMany(items);
    },
    nackMany: (items) => {
      calls.push({ op: 'nackMany', size: items.length });
      return inner.nackMany(items);
    },
  };
  return { driver, calls };
}

const { start: startWorker, make: makeWorker } = testWorkers({
  concurrency: 8,
  visibilityTimeoutMs: 30_000,
  pollIntervalMs: 1_000,
});

describe('worker: settle batching', () => {
  it('lands acks and nacks finishing within the window in one ackMany and one nackMany', async () => {
    const { driver: inner, clock } = memoryOnManualClock();
    const { driver, calls } = countingDriver(inner);
    const release = gate();
    let started = 0;
    const job = defineJob({
      name: 'batched',
      retry: { maxAttempts: 1 },
      run: async ({ payload }) => {
        started += 1;
        await release.promise;
        if (payload === 'fail') throw new Error('fails');
        return payload;
      },
    });
    await startWorker(driver, [job], { settleBatchMs: 5 });
    const client = createClient({ driver });
    const payloads = ['a', 'b', 'c', 'd', 'fail', 'fail', 'fail'];
    const ids: string[] = [];
    for (const payload of payloads) ids.push((await client.enqueue(job, payload)).id);
    await driveUntil(clock, () => started === payloads.length, { stepMs: 1 });
    release.open();
    await settleTicks();
    expect(calls).toEqual([]);
    await clock.advance(5);
    await settleTicks();
    expect(calls).toEqual([
      { op: 'ackMany', size: 4 },
      { op: 'nackMany', size: 3 },
    ]);
    const states = await Promise.all(ids.map(async (id) => (await driver.get(id))?.state));
    expect(states).toEqual([
      'completed',
      'completed',
      'completed',
      'completed',
      'dead',
      'dead',
      'dead',
    ]);
  });
});

describe('worker: onSettled', () => {
  it('runs after the settle landed with the outcome, retried with backoff while it throws', async () => {
    const { driver, clock } = memoryOnManualClock();
    const { logger, lines } = recordingLogger();
    const calls: { at: number; outcome: SettledOutcome; state: string | undefined }[] = [];
    const job = defineJob({
      name: 'hooked',
      run: () => 'answer',
      async onSettled(outcome, context) {
        calls.push({ at: clock.now(), outcome, state: (await driver.get(context.job.id))?.state });
        if (calls.length < 3) throw new Error(`hook ${calls.length} fails`);
      },
    });
    await startWorker(driver, [job], { logger });
    const { id } = await createClient({ driver }).enqueue(job, null);
    await driveToState(driver, clock, id, 'completed', { stepMs: 1 });
    await driveUntil(clock, () => calls.length === 3, { stepMs: 10 });
    expect(calls.map((call) => call.outcome)).toEqual([
      { state: 'completed', result: 'answer' },
      { state: 'completed', result: 'answer' },
      { state: 'completed', result: 'answer' },
    ]);
    expect(calls.map((call) => call.state)).toEqual(['completed', 'completed', 'completed']);
    const [first, second, third] = calls.map((call) => call.at);
    expect((second ?? 0) - (first ?? 0)).toBeGreaterThanOrEqual(100);
    expect((third ?? 0) - (second ?? 0)).toBeGreaterThanOrEqual(200);
    expect(lines.filter((line) => line.message.startsWith('onSettled threw'))).toHaveLength(2);
    expect(await driver.get(id)).toMatchObject({ state: 'completed', result: 'answer' });
  });

  it('gives up after three throws, logs it, and leaves the job as it settled', async () => {
    const { driver, clock } = memoryOnManualClock();
    const { logger, lines } = recordingLogger();
    const outcomes: string[] = [];
    const job = defineJob({
      name: 'broken-hook',
      retry: { maxAttempts: 2, backoff: { initialMs: 10, jitter: 0 } },
      run: () => {
        throw new Error('handler fails');
      },
      onSettled(outcome) {
        outcomes.push(outcome.state);
        throw new Error('hook fails');
      },
    });
    await startWorker(driver, [job], { logger });
    const { id } = await createClient({ driver }).enqueue(job, null);
    await driveToState(driver, clock, id, 'dead', { stepMs: 50 });
    await driveUntil(clock, () => outcomes.length === 6, { stepMs: 50 });
    await clock.advance(1_000);
    // Three calls per landed settle: the retry's nack, then the final one (they may interleave).
    expect([...outcomes].sort()).toEqual([
      'dead',
      'dead',
      'dead',
      'retrying',
      'retrying',
      'retrying',
    ]);
    expect(
      lines.filter((line) => line.level === 'error' && line.message.includes('giving up')),
    ).toHaveLength(2);
    expect(await driver.get(id)).toMatchObject({
      state: 'dead',
      lastError: { message: 'handler fails' },
    });
  });
});

describe('worker: lease burials', () => {
  it('announces a job buried by its claim as dead (or failed) and tells onSettled', async () => {
    const { driver, clock } = memoryOnManualClock();
    const settled: { name: string; outcome: SettledOutcome }[] = [];
    const onSettled = (outcome: SettledOutcome, context: { job: JobRecord }) => {
      settled.push({ name: context.job.name, outcome });
    };
    const kept = defineJob({
      name: 'kept',
      retry: { maxAttempts: 1 },
      run: () => undefined,
      onSettled,
    });
    const dropped = defineJob({
      name: 'dropped',
      retry: { maxAttempts: 1, deadLetter: false },
      run: () => undefined,
      onSettled,
    });
    const client = createClient({ driver });
    const a = await client.enqueue(kept, null);
    const b = await client.enqueue(dropped, null);
    // A worker that crashed mid-attempt: it claimed both and never came back.
    await driver.claim({
      queues: ['default'],
      limit: 2,
      workerId: 'crashed',
      visibilityTimeoutMs: 1_000,
    });
    await clock.advance(1_001);
    const worker = makeWorker(driver, [kept, dropped], {
      concurrency: 2,
      visibilityTimeoutMs: 1_000,
    });
    const events: string[] = [];
    worker.on('dead', ({ job, error }) => events.push(`dead:${job.name}:${error.code}`));
    worker.on('failed', ({ job, error }) => events.push(`failed:${job.name}:${error.code}`));
    await worker.start();
    await driveUntil(clock, () => settled.length === 2);
    expect(events.sort()).toEqual(['dead:kept:LEASE_LAPSED', 'failed:dropped:LEASE_LAPSED']);
    expect(settled.map((entry) => `${entry.name}:${entry.outcome.state}`).sort()).toEqual([
      'dropped:failed',
      'kept:dead',
    ]);
    expect(await driver.get(a.id)).toMatchObject({ state: 'dead' });
    expect(await driver.get(b.id)).toMatchObject({ state: 'failed' });
  });
});
