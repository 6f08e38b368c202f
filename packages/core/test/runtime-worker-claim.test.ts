import { describe, expect, it } from 'vitest';
import { createClient, type Driver, defineJob } from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';
import { driveToState, driveUntil, settleTicks } from './support/runtime.js';
import { testWorkers } from './support/workers.js';

const workers = testWorkers({ visibilityTimeoutMs: 30_000 });
const make = (
  driver: Driver,
  jobs: Parameters<typeof workers.make>[1],
  concurrency: number,
  pollIntervalMs: number,
) => workers.make(driver, jobs, { concurrency, pollIntervalMs });

describe('worker: claiming', () => {
  it('claims in batches of at most its free slots, and again as slots free', async () => {
    const { driver: inner, clock } = memoryOnManualClock();
    const limits: { limit: number | undefined; got: number }[] = [];
    const driver: Driver = {
      ...inner,
      claim: async (request) => {
        const jobs = await inner.claim(request);
        limits.push({ limit: request.limit, got: jobs.length });
        return jobs;
      },
    };
    const finishers = new Map<unknown, () => void>();
    const job = defineJob({
      name: 'held',
      run: ({ payload }) => new Promise<void>((resolve) => finishers.set(payload, resolve)),
    });
    const client = createClient({ driver });
    for (let n = 0; n < 5; n += 1) await client.enqueue(job, n);
    const worker = make(driver, [job], 3, 60_000);
    await worker.start();
    await driveUntil(clock, () => finishers.size === 3);
    expect(limits).toEqual([{ limit: 3, got: 3 }]);
    expect(worker.running()).toBe(3);
    finishers.get(0)?.();
    await driveUntil(clock, () => finishers.size === 4);
    expect(limits.slice(1)).toEqual([{ limit: 1, got: 1 }]);
    for (const finish of finishers.values()) finish();
    await driveUntil(clock, () => finishers.size === 5);
    for (const finish of finishers.values()) finish();
    await driveUntil(clock, () => worker.running() === 0);
    // The worker never asked for more than it had room for.
    for (const entry of limits) expect(entry.limit).toBeLessThanOrEqual(3);
  });

  it('wakes on the driver subscription without waiting for a poll', async () => {
    const { driver, clock } = memoryOnManualClock();
    let ran = false;
    const job = defineJob({
      name: 'woken',
      run: () => {
        ran = true;
      },
    });
    const worker = make(driver, [job], 1, 3_600_000);
    await worker.start();
    await settleTicks();
    await createClient({ driver }).enqueue(job, null);
    await settleTicks();
    expect(ran).toBe(true);
    expect(clock.now()).toBe(Date.UTC(2026, 0, 1));
  });

  it('with a subscription, one claim serves a job a client of the same driver enqueued: the wake and the in-process signal do not each send one', async () => {
    const { driver: inner, clock } = memoryOnManualClock();
    let claims = 0;
    const driver: Driver = {
      ...inner,
      claim: (request) => {
        claims += 1;
        return inner.claim(request);
      },
    };
    let ran = false;
    const job = defineJob({
      name: 'once',
      run: () => {
        ran = true;
      },
    });
    const worker = make(driver, [job], 10, 3_600_000);
    await worker.start();
    await settleTicks();
    const before = claims;
    await createClient({ driver }).enqueue(job, null);
    await driveUntil(clock, () => ran, { stepMs: 0, maxMs: 0 });
    await settleTicks();
    expect(claims - before).toBe(1);
    // A delayed job is still claimed when due, by this process's timer, not at the next poll.
    ran = false;
    const enqueuedAt = clock.now();
    await createClient({ driver }).enqueue(job, null, { delay: 5_000 });
    await settleTicks();
    expect(ran).toBe(false);
    await driveUntil(clock, () => ran, { stepMs: 1_000, maxMs: 6_000 });
    expect(clock.now() - enqueuedAt).toBe(5_000);
  });

  it('polls when the driver has no subscription', async () => {
    const { driver: inner, clock } = memoryOnManualClock();
    const { subscribe: _none, ...rest } = inner;
    const driver: Driver = rest;
    let ranAt: number | undefined;
    const job = defineJob({
      name: 'polled',
      run: () => {
        ranAt = clock.now();
      },
    });
    const worker = make(driver, [job], 1, 500);
    await worker.start();
    const start = clock.now();
    // Enqueued as another process would: a client on this process's driver wakes its workers.
    const { id } = await createClient({ driver: inner }).enqueue(job, null);
    await settleTicks();
    expect(ranAt).toBeUndefined();
    await driveToState(driver, clock, id, 'completed', { stepMs: 100 });
    expect(ranAt).toBe(start + 500);
  });

  it('claims at once a job a client of the same driver enqueued, without a subscription', async () => {
    const { driver: inner, clock } = memoryOnManualClock();
    const { subscribe: _none, ...rest } = inner;
    const driver: Driver = rest;
    let ran = false;
    const job = defineJob({
      name: 'told',
      run: () => {
        ran = true;
      },
    });
    const worker = make(driver, [job], 1, 60_000);
    await worker.start();
    await createClient({ driver }).enqueue(job, null);
    await driveUntil(clock, () => ran, { stepMs: 0, maxMs: 0 });
    expect(ran).toBe(true);
  });
});

describe('worker: steps', () => {
  it('suspends a sleeping run without holding a slot and resumes it on time', async () => {
    const { driver, clock } = memoryOnManualClock();
    const log: string[] = [];
    const drip = defineJob({
      name: 'drip',
      run: async ({ step, attempt }) => {
        await step.run('welcome', () => {
          log.push(`welcome#${attempt}`);
        });
        await step.sleep('nap', 60_000);
        await step.run('follow-up', () => {
          log.push(`follow-up#${attempt}`);
        });
        return 'dripped';
      },
    });
    const worker = make(driver, [drip], 1, 1_000);
    const parked: { until: number; reason: string }[] = [];
    worker.on('suspended', ({ until, reason }) => parked.push({ until, reason }));
    await worker.start();
    const { id } = await createClient({ driver }).enqueue(drip, null);
    const start = clock.now();
    await driveToState(driver, clock, id, 'suspended');
    expect(worker.running()).toBe(0);
    expect(parked).toEqual([{ until: start + 60_000, reason: 'step' }]);
    const record = await driveToState(driver, clock, id, 'completed', { stepMs: 1_000 });
    expect(record).toMatchObject({ attempts: 1, result: 'dripped' });
    expect(log).toEqual(['welcome#1', 'follow-up#1']);
  });

  it('resumes a run waiting for an event when the client publishes it', async () => {
    const { driver, clock } = memoryOnManualClock();
    const invoice = defineJob({
      name: 'invoice',
      run: async ({ step }) => {
        const paid = await step.waitForEvent('paid', {
          event: 'invoice.paid',
          match: { invoice: 'i-1' },
          timeout: 3_600_000,
        });
        return paid?.payload ?? null;
      },
    });
    const worker = make(driver, [invoice], 1, 3_600_000);
    await worker.start();
    const client = createClient({ driver });
    const { id } = await client.enqueue(invoice, null);
    await driveToState(driver, clock, id, 'suspended');
    await client.publish('invoice.paid', { invoice: 'i-1', amount: 42 });
    const record = await driveToState(driver, clock, id, 'completed', { stepMs: 1, maxMs: 100 });
    expect(record.result).toEqual({ invoice: 'i-1', amount: 42 });
  });
});
