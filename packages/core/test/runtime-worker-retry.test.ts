import { describe, expect, it } from 'vitest';
import {
  createClient,
  defineJob,
  type JobRecord,
  NonRetryableError,
  RetryAfterError,
  type WorkerEvents,
} from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';
import { driveToState, driveUntil, recordingLogger } from './support/runtime.js';
import { testWorkers } from './support/workers.js';

const workers = testWorkers({ concurrency: 2, visibilityTimeoutMs: 30_000, pollIntervalMs: 1_000 });

function setup(jobs: Parameters<typeof workers.make>[1], extra: { random?: () => number } = {}) {
  const { driver, clock } = memoryOnManualClock();
  const { logger, lines } = recordingLogger();
  const worker = workers.make(driver, jobs, { logger, ...extra });
  const seen: { event: keyof WorkerEvents; job: JobRecord; detail?: unknown }[] = [];
  for (const event of ['completed', 'retrying', 'failed', 'dead', 'lease-lost'] as const) {
    worker.on(event, (payload) => seen.push({ event, job: payload.job, detail: payload }));
  }
  return { driver, clock, worker, lines, seen, client: createClient({ driver }) };
}

describe('worker: completing and retrying', () => {
  it("runs a job with its payload and attempt and stores the handler's answer", async () => {
    const calls: unknown[] = [];
    const greet = defineJob({
      name: 'greet',
      run: ({ payload, attempt, job }) => {
        calls.push({ payload, attempt, state: job.state });
        return { greeting: `hello ${(payload as { name: string }).name}` };
      },
    });
    const { driver, clock, worker, client, seen } = setup([greet]);
    await worker.start();
    const { id } = await client.enqueue(greet, { name: 'Ada' });
    const record = await driveToState(driver, clock, id, 'completed');
    expect(record.result).toEqual({ greeting: 'hello Ada' });
    expect(calls).toEqual([{ payload: { name: 'Ada' }, attempt: 1, state: 'running' }]);
    expect(seen.map((entry) => entry.event)).toEqual(['completed']);
  });

  it('retries a throwing handler after the backoff, exactly, and completes on a later attempt', async () => {
    const attempts: { attempt: number; at: number }[] = [];
    const retryAts: number[] = [];
    let now = () => 0;
    const flaky = defineJob({
      name: 'flaky',
      retry: { maxAttempts: 4, backoff: { initialMs: 1_000, factor: 3, jitter: 0.5 } },
      run: ({ attempt }) => {
        attempts.push({ attempt, at: now() });
        if (attempt < 3) throw new Error(`attempt ${attempt} fails`);
        return 'ok';
      },
    });
    const { driver, clock, worker, client } = setup([flaky], { random: () => 0.5 });
    now = () => clock.now();
    worker.on('retrying', ({ retryAt }) => retryAts.push(retryAt));
    await worker.start();
    const { id } = await client.enqueue(flaky, null);
    const record = await driveToState(driver, clock, id, 'completed', { stepMs: 10 });
    expect(record).toMatchObject({ attempts: 3, result: 'ok' });
    expect(attempts.map((entry) => entry.attempt)).toEqual([1, 2, 3]);
    // 1 000 * 3^(n-1), with half of the jitter share (0.5) taken off: 750 ms, then 2 250 ms.
    const [first, second, third] = attempts.map((entry) => entry.at);
    expect(retryAts).toEqual([(first ?? 0) + 750, (second ?? 0) + 2_250]);
    expect((second ?? 0) - (first ?? 0)).toBeGreaterThanOrEqual(750);
    expect((third ?? 0) - (second ?? 0)).toBeGreaterThanOrEqual(2_250);
    // The nack parks the job delayed until retryAt: no attempt runs before it.
    expect((second ?? 0) - (first ?? 0)).toBeLessThan(750 + 1_000);
  });

  it("a RetryAfterError names the next attempt's time itself, in place of the backoff, and still counts an attempt", async () => {
    const attempts: { attempt: number; at: number }[] = [];
    const retryAts: number[] = [];
    let now = () => 0;
    const limited = defineJob({
      name: 'limited',
      retry: { maxAttempts: 3, backoff: { initialMs: 1_000, jitter: 0 } },
      run: ({ attempt }) => {
        attempts.push({ attempt, at: now() });
        if (attempt === 1) throw new RetryAfterError('told to wait', 7_500);
        return 'ok';
      },
    });
    const { driver, clock, worker, client } = setup([limited]);
    now = () => clock.now();
    worker.on('retrying', ({ retryAt }) => retryAts.push(retryAt));
    await worker.start();
    const { id } = await client.enqueue(limited, null);
    const record = await driveToState(driver, clock, id, 'completed', { stepMs: 50 });
    expect(record).toMatchObject({ attempts: 2, result: 'ok' });
    const [first, second] = attempts.map((entry) => entry.at);
    expect(retryAts).toEqual([(first ?? 0) + 7_500]);
    expect((second ?? 0) - (first ?? 0)).toBeGreaterThanOrEqual(7_500);
  });

  it('a RetryAfterError on the last attempt settles the job as any error would', async () => {
    const once = defineJob({
      name: 'once',
      retry: { maxAttempts: 1 },
      run: () => {
        throw new RetryAfterError('told to wait', 60_000);
      },
    });
    const { driver, clock, worker, client } = setup([once]);
    await worker.start();
    const { id } = await client.enqueue(once, null);
    const record = await driveToState(driver, clock, id, 'dead');
    expect(record.lastError).toMatchObject({ message: 'told to wait' });
  });

  it('dead-letters a job whose every attempt throws, keeping the last error', async () => {
    let runs = 0;
    const doomed = defineJob({
      name: 'doomed',
      retry: { maxAttempts: 2, backoff: { initialMs: 10, jitter: 0 } },
      run: () => {
        runs += 1;
        throw Object.assign(new Error(`attempt ${runs} fails`), { code: 'APP_DOWN' });
      },
    });
    const { driver, clock, worker, client, seen } = setup([doomed]);
    await worker.start();
    const { id } = await client.enqueue(doomed, null);
    const record = await driveToState(driver, clock, id, 'dead', { stepMs: 100 });
    expect(runs).toBe(2);
    expect(record.attempts).toBe(2);
    expect(record.lastError).toMatchObject({ code: 'APP_DOWN', message: 'attempt 2 fails' });
    expect(seen.map((entry) => entry.event)).toEqual(['retrying', 'dead']);
  });

  it('settles failed instead of dead when the job says deadLetter false', async () => {
    const dropped = defineJob({
      name: 'dropped',
      retry: { maxAttempts: 1, deadLetter: false },
      run: () => {
        throw new Error('nope');
      },
    });
    const { driver, clock, worker, client, seen } = setup([dropped]);
    await worker.start();
    const { id } = await client.enqueue(dropped, null);
    await driveToState(driver, clock, id, 'failed');
    expect(seen.map((entry) => entry.event)).toEqual(['failed']);
  });

  it('gives up at once on a non-retryable error, whatever attempts remain', async () => {
    let runs = 0;
    const declined = defineJob({
      name: 'declined',
      retry: { maxAttempts: 5 },
      run: () => {
        runs += 1;
        throw new NonRetryableError('card declined');
      },
    });
    const flagged = defineJob({
      name: 'flagged',
      retry: { maxAttempts: 5, deadLetter: false },
      run: () => {
        throw Object.assign(new Error('bad input'), { retryable: false });
      },
    });
    const { driver, clock, worker, client } = setup([declined, flagged]);
    await worker.start();
    const a = await client.enqueue(declined, null);
    const b = await client.enqueue(flagged, null);
    expect(await driveToState(driver, clock, a.id, 'dead')).toMatchObject({
      attempts: 1,
      lastError: { message: 'card declined' },
    });
    expect(await driveToState(driver, clock, b.id, 'failed')).toMatchObject({ attempts: 1 });
    expect(runs).toBe(1);
  });

  it('aborts an attempt past its timeout with JOB_TIMEOUT and retries it', async () => {
    const aborts: unknown[] = [];
    const slow = defineJob({
      name: 'slow',
      timeout: 1_000,
      retry: { maxAttempts: 2, backoff: { initialMs: 10, jitter: 0 } },
      run: ({ signal, attempt }) =>
        attempt === 2
          ? 'fast enough'
          : new Promise<never>(() => {
              signal.addEventListener('abort', () => aborts.push(signal.reason), { once: true });
            }),
    });
    const { driver, clock, worker, client } = setup([slow]);
    await worker.start();
    const { id } = await client.enqueue(slow, null);
    await driveUntil(clock, () => aborts.length > 0, { stepMs: 100 });
    expect(aborts).toEqual([expect.objectContaining({ code: 'JOB_TIMEOUT' })]);
    const record = await driveToState(driver, clock, id, 'completed', { stepMs: 100 });
    expect(record).toMatchObject({
      attempts: 2,
      result: 'fast enough',
      lastError: { code: 'JOB_TIMEOUT' },
    });
  });

  it('fails an attempt whose answer is not JSON', async () => {
    const odd = defineJob({
      name: 'odd',
      retry: { maxAttempts: 1 },
      run: () => ({ when: new Date(0) }) as unknown as string,
    });
    const { driver, clock, worker, client } = setup([odd]);
    await worker.start();
    const { id } = await client.enqueue(odd, null);
    expect(await driveToState(driver, clock, id, 'dead')).toMatchObject({
      lastError: { code: 'JOB_INVALID' },
    });
  });

  it('leaves a job it has no handler for ready, with no attempt spent, and runs the ones it knows', async () => {
    const known = defineJob({ name: 'known', run: () => undefined });
    const stranger = defineJob({
      name: 'stranger',
      retry: { maxAttempts: 1 },
      run: () => undefined,
    });
    const { driver, clock, worker, client } = setup([known]);
    await worker.start();
    const { id } = await client.enqueue(stranger, null);
    const mine = await client.enqueue(known, null);
    await driveToState(driver, clock, mine.id, 'completed');
    await clock.advance(60_000);
    expect(await driver.get(id)).toMatchObject({ state: 'ready', attempts: 0, claim: 0 });
    expect((await driver.stats())[0]?.counts).toMatchObject({ ready: 1, completed: 1 });
  });
});
