import { createManualClock, type Driver, type ManualClock } from '@berth/core';
import { createMemoryDriver } from '@berth/driver-memory';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDashboard, type OverviewResponse } from '../src/index.js';
import { getApi, startDashboard, type TestDashboard } from './support/server.js';

const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);
const MINUTE = 60_000;
const WORKER = 'w';

let clock: ManualClock;
let driver: Driver;
let served: TestDashboard;

beforeEach(async () => {
  clock = createManualClock(T0);
  driver = createMemoryDriver({ clock });
  served = await startDashboard({ driver });
});
afterEach(async () => {
  await served.close();
  await driver.close();
});

/** Enqueues `count` jobs in `queue` and settles them: acked, or dead when `fail`. */
async function settle(queue: string, count: number, fail = false) {
  await driver.enqueueMany(
    Array.from({ length: count }, () => ({ name: 'job', queue, maxAttempts: 1 })),
  );
  const claimed = await driver.claim({
    queues: [queue],
    limit: count,
    workerId: WORKER,
    visibilityTimeoutMs: MINUTE,
  });
  const fences = claimed.map((job) => ({ jobId: job.id, workerId: WORKER, claim: job.claim }));
  if (fail) {
    await driver.nackMany(
      fences.map((fence) => ({ fence, error: { message: 'no' }, final: true })),
    );
  } else {
    await driver.ackMany(fences.map((fence) => ({ fence })));
  }
}

const overview = async () => (await getApi<OverviewResponse>(served.base, '/overview')).body;

/** Enqueues a job of `name` per key of `keys` in `queue`, then claims every job of the queue. */
async function runKeyed(queue: string, name: string, keys: readonly (string | undefined)[]) {
  for (const concurrencyKey of keys) {
    await driver.enqueue({
      name,
      queue,
      ...(concurrencyKey === undefined ? {} : { concurrencyKey }),
    });
  }
  await driver.claim({ queues: [queue], workerId: WORKER, visibilityTimeoutMs: MINUTE, limit: 10 });
}

describe('GET /api/overview', () => {
  it('answers stats() per queue: counts by state and the age of the oldest ready job', async () => {
    await driver.enqueue({ name: 'job', queue: 'mail' });
    await clock.advance(5_000);
    await driver.enqueue({ name: 'job', queue: 'mail' });
    await driver.enqueue({ name: 'job', queue: 'mail', runAt: T0 + 3_600_000 });
    const body = await overview();
    expect(body.now).toBe(T0 + 5_000);
    expect(body.queues).toHaveLength(1);
    expect(body.queues[0]).toMatchObject({
      queue: 'mail',
      counts: { ready: 2, delayed: 1, running: 0, completed: 0 },
      oldestReadyAgeMs: 5_000,
      capped: [],
    });
    expect(body.throughput.minuteStarts).toHaveLength(60);
    expect(body.throughput.minuteStarts.at(-1)).toBe(T0);
  });

  it('puts completions and failures seen between two readings in the minute of the later one', async () => {
    const first = await overview();
    expect(first.throughput).toMatchObject({ source: 'sampled', since: T0 });
    await settle('mail', 3);
    await settle('mail', 2, true);
    await clock.advance(MINUTE);
    await settle('mail', 4);
    await settle('sms', 1);
    const body = await overview();
    const mail = body.queues.find((queue) => queue.queue === 'mail');
    const sms = body.queues.find((queue) => queue.queue === 'sms');
    // Everything since the first reading lands in the minute of this reading.
    expect(mail?.completed.at(-1)).toBe(7);
    expect(mail?.failed.at(-1)).toBe(2);
    expect(sms?.completed.at(-1)).toBe(1);
    expect(body.throughput.completed.at(-1)).toBe(8);
    await clock.advance(MINUTE);
    await settle('mail', 1);
    const later = await overview();
    const series = later.queues.find((queue) => queue.queue === 'mail');
    expect(series?.completed.slice(-2)).toEqual([7, 1]);
    expect(later.throughput.failed.slice(-2)).toEqual([2, 0]);
  });

  it('counts nothing for a reading whose counts shrank (a purge), and forgets minutes past the hour', async () => {
    await overview();
    await settle('mail', 5);
    await overview();
    await clock.advance(1);
    await driver.purge({ states: ['completed'], olderThan: clock.now() });
    await settle('mail', 1);
    const body = await overview();
    expect(body.throughput.completed.at(-1)).toBe(5);
    await clock.advance(61 * MINUTE);
    const hourLater = await overview();
    expect(hourLater.throughput.completed.every((count) => count === 0)).toBe(true);
  });

  it('flags job names whose oldest ready job waited longer than staleReadyAfterMs, and only those', async () => {
    await driver.enqueue({ name: 'orphan', queue: 'reports' });
    await driver.enqueue({ name: 'orphan', queue: 'reports' });
    await clock.advance(6 * MINUTE);
    await driver.enqueue({ name: 'fresh', queue: 'reports' });
    await driver.enqueue({ name: 'job', queue: 'mail' });
    const body = await overview();
    expect(body.stale).toEqual({
      afterMs: 5 * MINUTE,
      names: [{ queue: 'reports', name: 'orphan', oldestReadyAgeMs: 6 * MINUTE, seen: 2 }],
      partial: [],
    });
    const patient = await startDashboard({ driver, staleReadyAfterMs: 10 * MINUTE });
    try {
      const later = (await getApi<OverviewResponse>(patient.base, '/overview')).body;
      expect(later.stale).toEqual({ afterMs: 10 * MINUTE, names: [], partial: [] });
    } finally {
      await patient.close();
    }
  });

  it('answers the concurrency keys in use: running jobs per name and key, busiest first', async () => {
    expect((await overview()).concurrency).toEqual({
      keys: [],
      keyCount: 0,
      scanned: 0,
      truncated: false,
    });
    await runKeyed('sync', 'account.sync', ['acct-1', 'acct-2', 'acct-1', 'acct-1', undefined]);
    await runKeyed('mail', 'email.send', ['acct-1', 'acct-1']);
    // Keyed but not running: not counted.
    await driver.enqueue({ name: 'account.sync', queue: 'idle', concurrencyKey: 'acct-1' });
    const body = await overview();
    expect(body.concurrency).toEqual({
      keys: [
        { name: 'account.sync', key: 'acct-1', running: 3 },
        { name: 'email.send', key: 'acct-1', running: 2 },
        { name: 'account.sync', key: 'acct-2', running: 1 },
      ],
      keyCount: 3,
      // Every running job is read, the unkeyed one too.
      scanned: 7,
      truncated: false,
    });
    // The existing fields are unchanged.
    expect(body.queues.find((queue) => queue.queue === 'sync')?.counts.running).toBe(5);
  });

  it('answers the 20 busiest concurrency keys, and how many keys run in all', async () => {
    await runKeyed('busy', 'account.sync', ['acct-00', 'acct-00']);
    for (let batch = 0; batch < 3; batch += 1) {
      const keys = Array.from({ length: 8 }, (_, index) => `acct-${batch}${index + 1}`);
      await runKeyed('sync', 'account.sync', keys);
    }
    const { concurrency } = await overview();
    expect(concurrency.keyCount).toBe(25);
    expect(concurrency.keys).toHaveLength(20);
    expect(concurrency.keys[0]).toEqual({ name: 'account.sync', key: 'acct-00', running: 2 });
    // Ties come by name, then key.
    expect(concurrency.keys.slice(1, 3).map((entry) => entry.key)).toEqual(['acct-01', 'acct-02']);
    expect(concurrency.scanned).toBe(26);
  });

  it('a staleReadyAfterMs that is not an integer from 1 ms to a week is CONFIG_INVALID', async () => {
    for (const staleReadyAfterMs of [0, 1.5, 8 * 24 * 60 * MINUTE]) {
      expect(() => createDashboard({ driver, staleReadyAfterMs })).toThrow(
        expect.objectContaining({ code: 'CONFIG_INVALID' }),
      );
    }
  });
});
