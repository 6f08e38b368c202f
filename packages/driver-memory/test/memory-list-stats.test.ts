import type { Driver, JobRecord, ManualClock, StepRecord } from '@berth/core';
import { describe, expect, it } from 'vitest';
import { mustGet, refusal, running, setup, T0 } from './support.js';

const ids = (jobs: readonly JobRecord[]) => jobs.map((job) => job.id);

/** A cursor a page must have given. */
function must(cursor: string | undefined): string {
  if (cursor === undefined) throw new Error('the page gave no cursor');
  return cursor;
}

/** Seven jobs: pairs share a createdAt, so seq breaks the ties. Answers them newest first. */
async function seven(driver: Driver, clock: ManualClock): Promise<string[]> {
  const made: string[] = [];
  for (let i = 0; i < 7; i += 1) {
    made.push((await driver.enqueue({ name: 'n', payload: i })).id);
    if (i % 2 === 1) await clock.advance(1);
  }
  return made.reverse();
}

describe('memory list', () => {
  it('lists newest first by createdAt then insertion order, paging forward with next', async () => {
    const { driver, clock } = setup();
    const order = await seven(driver, clock);
    const one = await driver.list({ limit: 3 });
    expect(ids(one.jobs)).toEqual(order.slice(0, 3));
    expect(one).not.toHaveProperty('prev');
    const two = await driver.list({ limit: 3, after: must(one.next) });
    expect(ids(two.jobs)).toEqual(order.slice(3, 6));
    const three = await driver.list({ limit: 3, after: must(two.next) });
    expect(ids(three.jobs)).toEqual(order.slice(6));
    expect(three).not.toHaveProperty('next');
    expect(typeof three.prev).toBe('string');
  });

  it('pages backward with prev, each page in list order, until the first page', async () => {
    const { driver, clock } = setup();
    const order = await seven(driver, clock);
    const last = await driver.list({
      limit: 2,
      after: must((await driver.list({ limit: 5 })).next),
    });
    expect(ids(last.jobs)).toEqual(order.slice(5));
    const back = await driver.list({ limit: 2, before: must(last.prev) });
    expect(ids(back.jobs)).toEqual(order.slice(3, 5));
    expect(typeof back.prev).toBe('string');
    const back2 = await driver.list({ limit: 3, before: must(back.prev) });
    expect(ids(back2.jobs)).toEqual(order.slice(0, 3));
    expect(back2).not.toHaveProperty('prev');
    expect(ids((await driver.list({ limit: 3, after: must(back2.next) })).jobs)).toEqual(
      order.slice(3, 6),
    );
  });

  it('filters by effective state, queue, name and tenant', async () => {
    const { driver, clock } = setup();
    const due = await driver.enqueue({ name: 'a', runAt: T0 + 10, queue: 'q' });
    const later = await driver.enqueue({ name: 'b', runAt: T0 + 1_000, tenantId: 't' });
    await clock.advance(10);
    expect(ids((await driver.list({ state: 'ready' })).jobs)).toEqual([due.id]);
    expect(ids((await driver.list({ state: 'delayed' })).jobs)).toEqual([later.id]);
    expect(ids((await driver.list({ queue: 'q' })).jobs)).toEqual([due.id]);
    expect(ids((await driver.list({ name: 'b' })).jobs)).toEqual([later.id]);
    expect(ids((await driver.list({ tenantId: 't' })).jobs)).toEqual([later.id]);
  });

  it('refuses a cursor no page produced with JOB_PAGE_INVALID', async () => {
    const { driver } = setup();
    await refusal(driver.list({ after: 'nonsense' }), 'JOB_PAGE_INVALID');
  });
});

describe('memory stats and purge', () => {
  it('counts every effective state per queue, sorted by name, with the oldest ready age', async () => {
    const { driver, clock } = setup();
    await driver.enqueue({ name: 'x', queue: 'b' });
    await driver.enqueue({ name: 'x', queue: 'b', runAt: T0 + 50 });
    await driver.enqueue({ name: 'x', queue: 'B', runAt: T0 + 500 });
    await clock.advance(100);
    const stats = await driver.stats();
    expect(stats.map((entry) => entry.queue)).toEqual(['B', 'b']);
    expect(stats[1]).toEqual({
      queue: 'b',
      counts: {
        ready: 2,
        delayed: 0,
        running: 0,
        suspended: 0,
        completed: 0,
        failed: 0,
        dead: 0,
        cancelled: 0,
      },
      oldestReadyAgeMs: 100,
    });
    expect(stats[0]?.oldestReadyAgeMs).toBeNull();
    expect(stats[0]?.counts.delayed).toBe(1);
  });

  it('purges rows of the states finished before olderThan, with their steps', async () => {
    const { driver, clock } = setup();
    const { job, fence } = await running(driver);
    const record: StepRecord = {
      runId: job.runId,
      name: 's',
      status: 'completed',
      attempts: 1,
      startedAt: T0,
      updatedAt: T0,
    };
    await driver.steps.put(record, fence);
    await driver.ack(fence);
    const kept = await driver.enqueue({ name: 'x' });
    await driver.cancel(kept.id);
    await clock.advance(10);
    expect(await driver.purge({ states: ['completed'], olderThan: T0 })).toBe(0);
    expect(await driver.purge({ states: ['completed'], olderThan: T0 + 1 })).toBe(1);
    expect(await driver.get(job.id)).toBeUndefined();
    expect(await driver.steps.list(job.runId)).toEqual([]);
    expect((await mustGet(driver, kept.id)).state).toBe('cancelled');
  });
});
