import { describe, expect, it } from 'vitest';
import { createClient, type Driver, defineJob, isBerthError } from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';
import { driveToState, driveUntil, settleTicks } from './support/runtime.js';
import { testWorkers } from './support/workers.js';

const workers = testWorkers({ visibilityTimeoutMs: 30_000 });
/** A poll so long that only a wake can make the worker claim within a test. */
const HOUR = 3_600_000;

describe('worker: paused queues', () => {
  it('claims nothing from a paused queue, even at its polls, and runs its jobs as soon as it is resumed, without waiting for a poll', async () => {
    const { driver, clock } = memoryOnManualClock();
    const ran: number[] = [];
    const job = defineJob({
      name: 'mail.send',
      queue: 'mail',
      run: ({ payload }) => {
        ran.push(payload as number);
      },
    });
    const client = createClient({ driver });
    const worker = workers.make(driver, [job], { concurrency: 2, pollIntervalMs: HOUR });
    await worker.start();
    expect(await client.pause('mail')).toEqual({
      queue: 'mail',
      paused: true,
      pausedAt: clock.now(),
    });
    const { id } = await client.enqueue(job, 1);
    await settleTicks();
    await clock.advance(HOUR + 1);
    await settleTicks();
    expect(ran).toEqual([]);
    expect((await driver.get(id))?.state).toBe('ready');
    expect(await client.paused()).toEqual([
      { queue: 'mail', paused: true, pausedAt: clock.now() - HOUR - 1 },
    ]);
    const at = clock.now();
    expect(await client.resume('mail')).toEqual({ queue: 'mail', paused: false });
    await driveUntil(clock, () => ran.length === 1, { stepMs: 0, maxMs: 0 });
    expect(ran).toEqual([1]);
    expect(clock.now()).toBe(at);
    await worker.stop();
  });

  it('a job running when its queue is paused finishes and settles completed', async () => {
    const { driver, clock } = memoryOnManualClock();
    let finish: (() => void) | undefined;
    const job = defineJob({
      name: 'report',
      queue: 'reports',
      run: () =>
        new Promise<void>((resolve) => {
          finish = resolve;
        }),
    });
    const client = createClient({ driver });
    const worker = workers.make(driver, [job], { concurrency: 1, pollIntervalMs: HOUR });
    await worker.start();
    const { id } = await client.enqueue(job, null);
    await driveUntil(clock, () => finish !== undefined);
    await client.pause('reports');
    finish?.();
    await driveToState(driver, clock, id, 'completed');
    await worker.stop();
  });

  it("on a driver without a wake subscription, the client's resume still wakes this process's workers at once", async () => {
    const { driver: inner, clock } = memoryOnManualClock();
    const { subscribe: _subscribe, ...unsubscribable } = inner;
    const driver: Driver = unsubscribable;
    let ran = false;
    const job = defineJob({
      name: 'ping',
      queue: 'pings',
      run: () => {
        ran = true;
      },
    });
    const client = createClient({ driver });
    const worker = workers.make(driver, [job], { concurrency: 1, pollIntervalMs: HOUR });
    await worker.start();
    await client.pause('pings');
    await client.enqueue(job, null);
    await settleTicks();
    expect(ran).toBe(false);
    const at = clock.now();
    await client.resume('pings');
    await driveUntil(clock, () => ran, { stepMs: 0, maxMs: 0 });
    expect(clock.now()).toBe(at);
    await worker.stop();
  });

  it('the client refuses a tenant-scoped pause with JOB_INVALID naming tenantId, and pauses nothing', async () => {
    const { driver } = memoryOnManualClock();
    const client = createClient({ driver });
    const refused = await client
      .pause('mail', { tenantId: 'acme' })
      .catch((error: unknown) => error);
    expect(isBerthError(refused, 'JOB_INVALID') && refused.meta.field).toBe('tenantId');
    expect(await client.paused()).toEqual([]);
  });
});
