import type { Clock, Driver, JobRecord, QueueStats } from '@berth/core';
import { describe, expect, it } from 'vitest';
import { createMemoryDriver } from '../src/index.js';
import { meterOf } from '../src/meter.js';
import { fenceOf, mustGet, T0 } from './support.js';

/** A clock a test may move anywhere, backwards too (a system clock can step back). */
function steppingClock(): Clock & { at(instant: number): void } {
  let now = T0;
  return {
    now: () => now,
    at: (instant) => {
      now = instant;
    },
  };
}

const countsOf = (stats: readonly QueueStats[], queue: string) =>
  stats.find((entry) => entry.queue === queue)?.counts;

async function everyPage(driver: Driver, limit: number, direction: 'next' | 'prev') {
  const seen: JobRecord[][] = [];
  let page = await driver.list({ limit });
  if (direction === 'prev') {
    while (page.next !== undefined) page = await driver.list({ limit, after: page.next });
  }
  seen.push([...page.jobs]);
  for (;;) {
    const cursor = direction === 'next' ? page.next : page.prev;
    if (cursor === undefined) break;
    page = await driver.list(
      direction === 'next' ? { limit, after: cursor } : { limit, before: cursor },
    );
    seen.push([...page.jobs]);
  }
  return (direction === 'next' ? seen : seen.reverse()).flat();
}

describe('memory driver indexes', () => {
  it('a clock that steps back makes a row found due read delayed again, and a claim leaves it', async () => {
    const clock = steppingClock();
    const driver = createMemoryDriver({ clock });
    const { id } = await driver.enqueue({ name: 'later', queue: 'q', runAt: T0 + 1_000 });
    clock.at(T0 + 2_000);
    expect(countsOf(await driver.stats(), 'q')).toMatchObject({ ready: 1, delayed: 0 });
    clock.at(T0 + 500);
    expect(countsOf(await driver.stats(), 'q')).toMatchObject({ ready: 0, delayed: 1 });
    expect((await driver.stats())[0]?.oldestReadyAgeMs).toBeNull();
    expect(
      await driver.claim({ queues: ['q'], workerId: 'w', visibilityTimeoutMs: 1_000 }),
    ).toEqual([]);
    expect((await mustGet(driver, id)).state).toBe('delayed');
    clock.at(T0 + 1_000);
    const [job] = await driver.claim({ queues: ['q'], workerId: 'w', visibilityTimeoutMs: 1_000 });
    expect(job?.id).toBe(id);
  });

  it('a clock that steps back makes a lease found lapsed live again, and no claim takes it', async () => {
    const clock = steppingClock();
    const driver = createMemoryDriver({ clock });
    await driver.enqueue({ name: 'task', queue: 'q' });
    const [held] = await driver.claim({
      queues: ['q'],
      workerId: 'w1',
      visibilityTimeoutMs: 1_000,
    });
    clock.at(T0 + 2_000);
    await driver.stats();
    clock.at(T0 + 500);
    expect(
      await driver.claim({ queues: ['q'], workerId: 'w2', visibilityTimeoutMs: 1_000 }),
    ).toEqual([]);
    clock.at(T0 + 1_000);
    const [again] = await driver.claim({
      queues: ['q'],
      workerId: 'w2',
      visibilityTimeoutMs: 1_000,
    });
    expect([again?.id, again?.attempts]).toEqual([held?.id, 2]);
  });

  it('an extend of a lapsed lease a claim already looked at keeps it from the next claim', async () => {
    const clock = steppingClock();
    const driver = createMemoryDriver({ clock });
    await driver.enqueue({ name: 'task', queue: 'q' });
    await driver.enqueue({ name: 'task', queue: 'q', runAt: T0 + 10_000 });
    const [held] = await driver.claim({
      queues: ['q'],
      workerId: 'w1',
      visibilityTimeoutMs: 1_000,
    });
    if (held === undefined) throw new Error('nothing claimed');
    clock.at(T0 + 2_000);
    // This claim finds the lapsed lease (and takes it): a fresh claim of the same row.
    const [taken] = await driver.claim({ queues: ['q'], workerId: 'w2', visibilityTimeoutMs: 500 });
    if (taken === undefined) throw new Error('the lapsed lease was not re-claimed');
    clock.at(T0 + 3_000);
    await driver.stats();
    expect(await driver.extend(fenceOf(taken), 60_000)).toBe(true);
    expect(
      await driver.claim({ queues: ['q'], workerId: 'w3', visibilityTimeoutMs: 1_000 }),
    ).toEqual([]);
  });

  it('pages every row once, in keyset order, across many chunks and a clock that steps back', async () => {
    const clock = steppingClock();
    const driver = createMemoryDriver({ clock });
    const instants = [0, 5, 3, 3, 9, 1, 7, 7, 2, 8];
    for (let round = 0; round < 300; round += 1) {
      clock.at(T0 + (instants[round % instants.length] ?? 0) + Math.floor(round / 10) * 2);
      await driver.enqueueMany(
        Array.from({ length: 9 }, (_, index) => ({ name: 'n', payload: round * 9 + index })),
      );
    }
    const all = (await everyPage(driver, 500, 'next')).map((job) => job.id);
    const backwards = await everyPage(driver, 37, 'prev');
    expect(all).toHaveLength(2_700);
    expect(new Set(all).size).toBe(2_700);
    expect(backwards.map((job) => job.id)).toEqual(all);
    const created = (await everyPage(driver, 500, 'next')).map((job) => job.createdAt);
    expect(created).toEqual([...created].sort((a, b) => b - a));
  });

  it('purge removes only what it names, oldest first, and touches only those rows', async () => {
    const clock = steppingClock();
    const driver = createMemoryDriver({ clock });
    for (let batch = 0; batch < 2; batch += 1) {
      await driver.enqueueMany(Array.from({ length: 1_000 }, () => ({ name: 'keep', queue: 'q' })));
    }
    const done = await driver.enqueueMany(
      Array.from({ length: 10 }, () => ({ name: 'old', queue: 'q' })),
    );
    for (const [index, { id }] of done.entries()) {
      clock.at(T0 + index);
      await driver.cancel(id);
    }
    const meter = meterOf(driver);
    const before = meter.visits;
    expect(await driver.purge({ states: ['cancelled', 'dead'], olderThan: T0 + 4 })).toBe(4);
    expect(meter.visits - before).toBeLessThan(100);
    expect(countsOf(await driver.stats(), 'q')).toMatchObject({ ready: 2_000, cancelled: 6 });
    expect(await driver.get(done[0]?.id ?? '')).toBeUndefined();
    expect((await mustGet(driver, done[4]?.id ?? '')).state).toBe('cancelled');
  });

  it('a queue leaves stats when purge removes its last row, and comes back with a new one', async () => {
    const clock = steppingClock();
    const driver = createMemoryDriver({ clock });
    const { id } = await driver.enqueue({ name: 'x', queue: 'gone' });
    await driver.cancel(id);
    clock.at(T0 + 10);
    expect(await driver.purge({ states: ['cancelled'], olderThan: T0 + 10 })).toBe(1);
    expect(await driver.stats()).toEqual([]);
    await driver.enqueue({ name: 'x', queue: 'gone' });
    expect(countsOf(await driver.stats(), 'gone')).toMatchObject({ ready: 1 });
  });
});
