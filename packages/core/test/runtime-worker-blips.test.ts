import { describe, expect, it } from 'vitest';
import {
  BerthError,
  createClient,
  type Driver,
  defineJob,
  STOP_HANDBACK_MS,
  STOP_SLACK_MS,
} from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';
import { driveToState, driveUntil, recordingLogger, settleTicks } from './support/runtime.js';
import { testWorkers } from './support/workers.js';
import { never, wrapDriver } from './support/wrap.js';

const workers = testWorkers({ concurrency: 2, visibilityTimeoutMs: 30_000, pollIntervalMs: 50 });
const makeWorker = (
  driver: Driver,
  jobs: Parameters<typeof workers.make>[1],
  options: { visibilityTimeoutMs?: number; logger?: ReturnType<typeof recordingLogger> } = {},
) =>
  workers.make(driver, jobs, {
    ...(options.visibilityTimeoutMs === undefined
      ? {}
      : { visibilityTimeoutMs: options.visibilityTimeoutMs }),
    ...(options.logger === undefined ? {} : { logger: options.logger.logger }),
  });

describe('worker: a settle that fails is sent again', () => {
  it('gives up loudly (settle-failed) only once the lease cannot be renewed, and the job runs again', async () => {
    const { driver, clock } = memoryOnManualClock();
    let down = true;
    const failing = wrapDriver(driver, {
      top: {
        ackMany: (items: never) =>
          down ? Promise.reject(new Error('backend down')) : driver.ackMany(items),
        extend: (fence: never, ms: never) =>
          down ? Promise.reject(new Error('backend down')) : driver.extend(fence, ms),
        extendMany: (fences: never, ms: never) =>
          down ? Promise.reject(new Error('backend down')) : driver.extendMany(fences, ms),
      },
    });
    const attempts: number[] = [];
    const job = defineJob({
      name: 'report',
      retry: { maxAttempts: 3 },
      run: ({ attempt }) => {
        attempts.push(attempt);
        return 'sent';
      },
    });
    const worker = makeWorker(failing, [job], { visibilityTimeoutMs: 1_000 });
    const given: { settle: string; tries: number }[] = [];
    worker.on('settle-failed', ({ settle, tries }) => given.push({ settle, tries }));
    await worker.start();
    const { id } = await createClient({ driver }).enqueue(job, null);
    await driveUntil(clock, () => given.length === 1, { stepMs: 5, maxMs: 2_000 });
    // 25 + 50 + 100 + 200 + 400 ms of retries fit the 1 s lease; the sixth wait would not.
    expect(given).toEqual([{ settle: 'completed', tries: 6 }]);
    expect(await driver.get(id)).toMatchObject({ state: 'running', attempts: 1 });
    down = false;
    const done = await driveToState(driver, clock, id, 'completed', { stepMs: 50 });
    expect(done).toMatchObject({ attempts: 2, result: 'sent' });
    expect(attempts).toEqual([1, 2]);
  });

  it('does not resend a refusal: a BerthError other than DRIVER_UNAVAILABLE is given up at once', async () => {
    const { driver, clock } = memoryOnManualClock();
    let calls = 0;
    const refusing = wrapDriver(driver, {
      top: {
        ackMany: async () => {
          calls += 1;
          throw new BerthError({
            code: 'JOB_INVALID',
            detail: 'the result is too large',
            meta: { field: 'result', reason: 'is too large' },
          });
        },
      },
    });
    const job = defineJob({ name: 'big', run: () => 'x' });
    const worker = makeWorker(refusing, [job]);
    const given: number[] = [];
    worker.on('settle-failed', ({ tries }) => given.push(tries));
    await worker.start();
    await createClient({ driver }).enqueue(job, null);
    await driveUntil(clock, () => given.length === 1, { stepMs: 5, maxMs: 1_000 });
    expect(given).toEqual([1]);
    expect(calls).toBe(1);
  });

  it('an ack that landed before its answer was lost completes the job: completed is emitted, not lease-lost', async () => {
    const { driver, clock } = memoryOnManualClock();
    let lost = 0;
    const losing = wrapDriver(driver, {
      top: {
        // The first ack lands, then the connection drops before its answer arrives.
        ackMany: async (items: never) => {
          const landed = await driver.ackMany(items);
          if (lost++ === 0) throw new Error('connection reset');
          return landed;
        },
      },
    });
    const job = defineJob({ name: 'mail', run: () => 'sent' });
    const worker = makeWorker(losing, [job]);
    const seen: string[] = [];
    worker.on('completed', ({ result }) => seen.push(`completed:${String(result)}`));
    worker.on('lease-lost', () => seen.push('lease-lost'));
    worker.on('settle-failed', () => seen.push('settle-failed'));
    await worker.start();
    const { id } = await createClient({ driver }).enqueue(job, null);
    await driveUntil(clock, () => lost >= 2, { stepMs: 5, maxMs: 1_000 });
    await settleTicks();
    expect(seen).toEqual(['completed:sent']);
    expect(await driver.get(id)).toMatchObject({ state: 'completed', attempts: 1 });
  });
});

describe('worker: stop() is bounded by its grace', () => {
  it('resolves at the grace while a claim hangs', async () => {
    const { driver, clock } = memoryOnManualClock();
    let claims = 0;
    const hanging = wrapDriver(driver, {
      top: {
        claim: () => {
          claims += 1;
          return never();
        },
      },
    });
    const idle = defineJob({ name: 'idle', run: () => undefined });
    const worker = makeWorker(hanging, [idle]);
    await worker.start();
    await settleTicks();
    expect(claims).toBe(1);
    let stopped = false;
    const stopping = worker.stop({ graceMs: 100 }).then(() => {
      stopped = true;
    });
    await clock.advance(99);
    await settleTicks();
    expect(stopped).toBe(false);
    await clock.advance(1);
    await stopping;
    expect(stopped).toBe(true);
  });

  it('resolves at the grace while an ack hangs, leaving the job to its lease and saying so', async () => {
    const { driver, clock } = memoryOnManualClock();
    const hanging = wrapDriver(driver, { top: { ackMany: () => never() } });
    let runs = 0;
    const job = defineJob({
      name: 'report',
      run: () => {
        runs += 1;
        return 'sent';
      },
    });
    const log = recordingLogger();
    const worker = makeWorker(hanging, [job], { logger: log });
    await worker.start();
    const { id } = await createClient({ driver }).enqueue(job, null);
    await driveUntil(clock, () => runs === 1);
    let stopped = false;
    const stopping = worker.stop({ graceMs: 100 }).then(() => {
      stopped = true;
    });
    await clock.advance(99);
    await settleTicks();
    expect(stopped).toBe(false);
    await clock.advance(1);
    await stopping;
    expect(stopped).toBe(true);
    // Nothing landed and nothing ran twice: the row waits for its lease to lapse.
    expect(await driver.get(id)).toMatchObject({ state: 'running', attempts: 1 });
    expect(runs).toBe(1);
    const warned = log.lines.find((line) => line.message.includes('left to their leases'));
    expect(warned).toMatchObject({ level: 'warn', fields: { jobs: 1, jobIds: [id] } });
  });

  it('hands a job still running back within the grace while a claim hangs, and resolves at the grace', async () => {
    const { driver, clock } = memoryOnManualClock();
    let claims = 0;
    // The first claim brings the job; every later one (the next poll) hangs.
    const hanging = wrapDriver(driver, {
      top: {
        claim: (request: never) => {
          claims += 1;
          return claims === 1 ? driver.claim(request) : never();
        },
      },
    });
    let reason: unknown;
    const job = defineJob({
      name: 'slow',
      run: ({ signal }) =>
        new Promise<never>(() => {
          signal.addEventListener('abort', () => {
            reason = signal.reason;
          });
        }),
    });
    const { id } = await createClient({ driver }).enqueue(job, null);
    const worker = makeWorker(hanging, [job]);
    await worker.start();
    await driveUntil(clock, async () => (await driver.get(id))?.state === 'running');
    await driveUntil(clock, () => claims === 2, { stepMs: 10 });
    let stopped = false;
    const stopping = worker.stop({ graceMs: 1_000 }).then(() => {
      stopped = true;
    });
    // The hand-back point: a tenth of the grace (at most STOP_HANDBACK_MS) before its end.
    const handBack = 1_000 - Math.min(STOP_HANDBACK_MS, 100);
    await clock.advance(handBack - 1);
    await settleTicks();
    expect(reason).toBeUndefined();
    await clock.advance(1);
    await settleTicks();
    expect(reason).toMatchObject({ code: 'WORKER_DRAINING' });
    // Handed back inside the grace: due now, its attempt not counted.
    expect(await driver.get(id)).toMatchObject({ state: 'ready', attempts: 1 });
    expect(stopped).toBe(false);
    await clock.advance(1_000 - handBack - 1);
    await settleTicks();
    expect(stopped).toBe(false);
    await clock.advance(1);
    await stopping;
    expect(stopped).toBe(true);
  });

  it('with no grace, a hand-back the driver answers within STOP_SLACK_MS lands before stop() resolves', async () => {
    const { driver, clock } = memoryOnManualClock();
    // Each suspend answers after a few ms of real time, as a database round trip does.
    const slow = wrapDriver(driver, {
      top: {
        suspend: (fence: never, options: never) =>
          new Promise((resolve) => setTimeout(resolve, STOP_SLACK_MS / 5)).then(() =>
            driver.suspend(fence, options),
          ),
      },
    });
    let started = false;
    const job = defineJob({
      name: 'abandoned',
      run: () => {
        started = true;
        return new Promise<never>(() => {});
      },
    });
    const worker = makeWorker(slow, [job]);
    await worker.start();
    const { id } = await createClient({ driver }).enqueue(job, null);
    await driveUntil(clock, () => started);
    await worker.stop({ graceMs: 0 });
    expect(await driver.get(id)).toMatchObject({ state: 'ready', attempts: 1 });
  });
});
