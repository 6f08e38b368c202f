import type { ClaimedJob, Driver, EnqueueRequest } from '@berth/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { meterOf } from '../src/meter.js';
import { fenceOf, mustGet, setup, T0, VT } from './support.js';

/** Rows of each shape below: the same world is built at both sizes. */
const SMALL = 500;
const LARGE = 50_000;
/** An O(1) call may examine next to nothing in the small world; a scan would be 100× this. */
const FLOOR = 40;
const HOUR = 3_600_000;

async function fill(driver: Driver, count: number, request: EnqueueRequest): Promise<void> {
  for (let done = 0; done < count; done += 1_000) {
    const batch = Math.min(1_000, count - done);
    await driver.enqueueMany(Array.from({ length: batch }, () => request));
  }
}

/** Claims every claimable row of `queue`, a thousand at a time. */
async function claimAll(driver: Driver, queue: string, vt = HOUR): Promise<ClaimedJob[]> {
  const held: ClaimedJob[] = [];
  for (;;) {
    const batch = await driver.claim({
      queues: [queue],
      limit: 1_000,
      workerId: 'filler',
      visibilityTimeoutMs: vt,
    });
    if (batch.length === 0) return held;
    held.push(...batch);
  }
}

interface World {
  readonly driver: Driver;
  /** Running rows of queue `settle`, for the settles to present fences of. */
  readonly settle: readonly ClaimedJob[];
  /** The one row waiting for event `paid`. */
  readonly paid: string;
  /** A delayed row among the many of lane (future, later). */
  readonly promotable: string;
  /** A cursor into the middle of the list. */
  readonly cursor: string;
}

/**
 * One driver per size, each shape in a queue of its own so no call meets another's rows:
 * `future` (delayed rows of a higher priority over 10 ready ones), `ready` (10 urgent rows
 * between two halves of a ready backlog), `busy` (live leases, and five that lapsed), `waiters`
 * (suspended on another event), `settle` (running, ready and delayed), `old` (cancelled).
 */
async function build(size: number): Promise<World> {
  const { driver, clock } = setup();
  await fill(driver, size, { name: 'later', queue: 'future', priority: 9, runAt: T0 + HOUR });
  const { id: promotable } = await driver.enqueue({
    name: 'later',
    queue: 'future',
    priority: -1,
    runAt: T0 + 60_000,
  });
  await fill(driver, 10, { name: 'now', queue: 'future' });

  await fill(driver, size / 2, { name: 'task', queue: 'ready', priority: 1 });
  await fill(driver, 10, { name: 'urgent', queue: 'ready', priority: 2 });
  await fill(driver, size / 2, { name: 'task', queue: 'ready', priority: 1 });

  await fill(driver, size, { name: 'task', queue: 'busy' });
  await claimAll(driver, 'busy');
  await fill(driver, 3, { name: 'task', queue: 'busy', maxAttempts: 2, payload: 'retry' });
  await fill(driver, 2, { name: 'task', queue: 'busy', maxAttempts: 1, payload: 'last' });
  expect(await claimAll(driver, 'busy', 1_000)).toHaveLength(5);

  await fill(driver, size, { name: 'waiter', queue: 'waiters' });
  for (const job of await claimAll(driver, 'waiters')) {
    await driver.suspend(fenceOf(job), { until: T0 + HOUR, waitFor: 'other' });
  }
  await driver.enqueue({ name: 'waiter', queue: 'paid' });
  const [mine] = await claimAll(driver, 'paid');
  if (mine === undefined) throw new Error('no row to suspend');
  await driver.suspend(fenceOf(mine), { until: T0 + HOUR, waitFor: 'paid' });

  await fill(driver, size / 2, { name: 'busy', queue: 'settle' });
  const settle = await claimAll(driver, 'settle');
  await fill(driver, size / 4, { name: 'waiting', queue: 'settle' });
  await fill(driver, size / 4, { name: 'later', queue: 'settle', runAt: T0 + HOUR });

  for (const { id } of await driver.enqueueMany(
    Array.from({ length: 5 }, () => ({ name: 'old', queue: 'old' })),
  )) {
    await driver.cancel(id);
  }
  const { next } = await driver.list({ limit: 500 });
  if (next === undefined) throw new Error('no second page');
  // The five short leases lapse; nothing else is due.
  await clock.advance(1_000);
  return { driver, settle, paid: mine.id, promotable, cursor: next };
}

let small: World;
let large: World;

beforeAll(async () => {
  small = await build(SMALL);
  large = await build(LARGE);
}, 60_000);

/** Rows `call` examined in the small and in the large world. */
async function visits(call: (world: World) => Promise<unknown>) {
  const seen = { small: 0, large: 0 };
  for (const [size, world] of [
    ['small', small],
    ['large', large],
  ] as const) {
    const meter = meterOf(world.driver);
    const before = meter.visits;
    await call(world);
    seen[size] = meter.visits - before;
  }
  return seen;
}

/** Bounded: the large world's count stays within 5× the small one's, where a scan is 100×. */
async function expectBounded(what: string, call: (world: World) => Promise<unknown>) {
  const seen = await visits(call);
  expect({ what, ...seen, bounded: seen.large < 5 * Math.max(seen.small, FLOOR) }).toMatchObject({
    bounded: true,
  });
}

const claimFrom = (driver: Driver, queue: string) =>
  driver.claim({ queues: [queue], limit: 10, workerId: 'w', visibilityTimeoutMs: VT });

describe('memory driver at a large backlog: the rows a call examines do not grow with it', () => {
  it('a claim steps over no future row, however many have a higher priority', async () => {
    await expectBounded('claim', async ({ driver }) => {
      const claimed = await claimFrom(driver, 'future');
      expect(claimed.map((job) => job.name)).toEqual(Array(10).fill('now'));
    });
  });

  it('a claim from a large ready backlog takes the first rows in claim order', async () => {
    await expectBounded('claim', async ({ driver }) => {
      const claimed = await claimFrom(driver, 'ready');
      expect(claimed.map((job) => job.name)).toEqual(Array(10).fill('urgent'));
    });
  });

  it('a claim finds lapsed leases among many live ones and buries the final attempts', async () => {
    await expectBounded('claim', async ({ driver }) => {
      const buried: unknown[] = [];
      const claimed = await driver.claim({
        queues: ['busy'],
        limit: 10,
        workerId: 'w',
        visibilityTimeoutMs: VT,
        onExhausted: (jobs) => buried.push(...jobs.map((job) => [job.payload, job.state])),
      });
      expect(claimed.map((job) => [job.payload, job.attempts])).toEqual(
        Array(3).fill(['retry', 2]),
      );
      expect(buried).toEqual(Array(2).fill(['last', 'dead']));
    });
  });

  it('a publish wakes its waiters without looking at rows waiting on other events', async () => {
    await expectBounded('publish', async ({ driver, paid }) => {
      await driver.events.publish('paid', null);
      expect((await mustGet(driver, paid)).state).toBe('ready');
    });
  });

  const settles: Record<string, (driver: Driver, job: ClaimedJob) => Promise<unknown>> = {
    ack: (driver, job) => driver.ack(fenceOf(job)),
    nack: (driver, job) => driver.nack(fenceOf(job), { error: { message: 'again' } }),
    'nack to a later retry': (driver, job) =>
      driver.nack(fenceOf(job), { error: { message: 'later' }, retryAt: T0 + HOUR }),
    suspend: (driver, job) => driver.suspend(fenceOf(job), { until: T0 + HOUR, waitFor: 'e' }),
    extend: (driver, job) => driver.extend(fenceOf(job), HOUR),
    cancel: (driver, job) => driver.cancel(job.id),
    'requeue of a dead row': async (driver, job) => {
      await driver.nack(fenceOf(job), { error: { message: 'give up' }, final: true });
      await driver.requeue(job.id);
    },
  };

  it('every settle, cancel, requeue and promote at a large backlog', async () => {
    for (const [index, [name, call]] of Object.entries(settles).entries()) {
      await expectBounded(name, ({ driver, settle: held }) => {
        const job = held[(held.length >> 1) + index];
        if (job === undefined) throw new Error('nothing held');
        return call(driver, job);
      });
    }
    await expectBounded('promote', async ({ driver, promotable }) =>
      expect((await driver.promote(promotable)).state).toBe('ready'),
    );
  });

  it('a first page, a page from a cursor, stats and a purge of a few rows', async () => {
    await expectBounded('a first page', async ({ driver }) =>
      expect((await driver.list({ limit: 50 })).jobs).toHaveLength(50),
    );
    await expectBounded('a page from a cursor', async ({ driver, cursor }) =>
      expect((await driver.list({ limit: 50, after: cursor })).jobs).toHaveLength(50),
    );
    await expectBounded('stats', async ({ driver }) =>
      expect(await driver.stats()).toHaveLength(7),
    );
    await expectBounded('a purge of a few rows', async ({ driver }) =>
      expect(await driver.purge({ states: ['cancelled'], olderThan: T0 + 1_000 })).toBe(5),
    );
  });
});
