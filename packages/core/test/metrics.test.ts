import { describe, expect, it } from 'vitest';
import {
  createClient,
  createWorker,
  defineJob,
  instrumentQueues,
  instrumentWorker,
  NonRetryableError,
} from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';
import { meterWithReader, points } from './support/metrics.js';
import { driveToState, driveUntil, recordingLogger } from './support/runtime.js';

describe('metrics', () => {
  it('queue metrics report what one driver.stats() call per collection reports: jobs per queue and state, and the oldest ready age in seconds; stopped, they read nothing more', async () => {
    const { driver, clock } = memoryOnManualClock();
    const { meter, collect } = meterWithReader();
    await driver.enqueue({ name: 'mail.send', queue: 'mail', payload: null });
    await clock.advance(4_000);
    await driver.enqueue({ name: 'mail.send', queue: 'mail', payload: null });
    await driver.enqueue({
      name: 'report',
      queue: 'reports',
      payload: null,
      runAt: clock.now() + 60_000,
    });
    let reads = 0;
    const counting = {
      ...driver,
      stats: () => {
        reads += 1;
        return driver.stats();
      },
    };
    const handle = await instrumentQueues({ driver: counting, meter });
    const metrics = await collect();
    expect(reads).toBe(1);
    const jobs = points(metrics, 'berth.queue.jobs');
    expect(jobs).toContainEqual({
      attributes: { 'messaging.destination.name': 'mail', 'berth.job.state': 'ready' },
      value: 2,
    });
    expect(jobs).toContainEqual({
      attributes: { 'messaging.destination.name': 'reports', 'berth.job.state': 'delayed' },
      value: 1,
    });
    expect(points(metrics, 'berth.queue.oldest_ready_age')).toContainEqual({
      attributes: { 'messaging.destination.name': 'mail' },
      value: 4,
    });
    const stats = await driver.stats();
    const total = jobs.reduce((sum, point) => sum + Number(point.value), 0);
    const counted = stats.reduce(
      (sum, queue) => sum + Object.values(queue.counts).reduce((a, b) => a + b, 0),
      0,
    );
    expect(total).toBe(counted);
    handle.stop();
    await collect();
    expect(reads).toBe(1);
  });

  it('worker metrics count attempts by job and outcome, time the ones it ran, and track the handlers running', async () => {
    const { driver, clock } = memoryOnManualClock();
    const { meter, collect } = meterWithReader();
    const ok = defineJob({ name: 'ok', run: () => 'done' });
    const bad = defineJob({
      name: 'bad',
      retry: { maxAttempts: 1 },
      run: () => {
        throw new NonRetryableError('no');
      },
    });
    const worker = createWorker({
      driver,
      jobs: [ok, bad],
      concurrency: 2,
      visibilityTimeoutMs: 30_000,
      pollIntervalMs: 10,
      logger: recordingLogger().logger,
    });
    const handle = await instrumentWorker(worker, { meter });
    await worker.start();
    const client = createClient({ driver });
    const first = await client.enqueue(ok, null);
    const second = await client.enqueue(ok, null);
    const third = await client.enqueue(bad, null);
    await driveToState(driver, clock, first.id, 'completed');
    await driveToState(driver, clock, second.id, 'completed');
    await driveToState(driver, clock, third.id, 'dead');
    await worker.stop({ graceMs: 0 });
    const metrics = await collect();
    expect(points(metrics, 'berth.attempts')).toEqual(
      expect.arrayContaining([
        { attributes: { 'berth.job.name': 'ok', 'berth.job.outcome': 'completed' }, value: 2 },
        { attributes: { 'berth.job.name': 'bad', 'berth.job.outcome': 'dead' }, value: 1 },
      ]),
    );
    const durations = points(metrics, 'berth.attempt.duration');
    const okDuration = durations.find((point) => point.attributes['berth.job.name'] === 'ok');
    expect(okDuration?.value).toMatchObject({ count: 2 });
    expect(points(metrics, 'berth.worker.active')).toEqual(
      expect.arrayContaining([{ attributes: { 'berth.job.name': 'ok' }, value: 0 }]),
    );
    handle.stop();
  });

  it('worker metrics count the jobs a worker took again after another claim’s lease lapsed, by job name, and not the ones it retried', async () => {
    const { driver, clock } = memoryOnManualClock();
    const { meter, collect } = meterWithReader();
    let failedOnce = false;
    const sync = defineJob({
      name: 'sync',
      retry: { maxAttempts: 3, backoff: { initialMs: 10, jitter: 0 } },
      run: ({ payload }) => {
        if (payload === 'flaky' && !failedOnce) {
          failedOnce = true;
          throw new Error('first attempt fails');
        }
        return 'synced';
      },
    });
    const client = createClient({ driver, jobs: [sync] });
    const orphan = await client.enqueue(sync, 'orphan');
    // A worker that claimed it and died: its lease runs out with nothing settled.
    await driver.claim({ queues: ['default'], workerId: 'crashed', visibilityTimeoutMs: 1_000 });
    const flaky = await client.enqueue(sync, 'flaky');
    const worker = createWorker({
      driver,
      jobs: [sync],
      concurrency: 1,
      visibilityTimeoutMs: 30_000,
      pollIntervalMs: 10,
      logger: recordingLogger().logger,
    });
    const handle = await instrumentWorker(worker, { meter });
    await worker.start();
    await driveToState(driver, clock, flaky.id, 'completed');
    await driveToState(driver, clock, orphan.id, 'completed');
    await driveUntil(clock, async () => points(await collect(), 'berth.jobs.stalled').length > 0);
    await worker.stop({ graceMs: 0 });
    expect(points(await collect(), 'berth.jobs.stalled')).toEqual([
      { attributes: { 'berth.job.name': 'sync' }, value: 1 },
    ]);
    handle.stop();
  });

  it('without a meter, the global meter provider is used (here the API’s no-op one), and instrumenting answers a handle', async () => {
    const { driver } = memoryOnManualClock();
    // @opentelemetry/api is installed here: the global (no-op) meter is used, and nothing throws.
    const handle = await instrumentQueues({ driver });
    handle.stop();
  });
});
