import type { ClaimedJob, Driver, EnqueueRequest } from '@berth/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { meterOf } from '../src/meter.js';
import { fenceOf, setup, T0 } from './support.js';

const SMALL = 1_000;
const LARGE = 100_000;
const BATCH = 1_000;
const HOUR = 3_600_000;
const QUEUE = 'hot';

async function fill(driver: Driver, count: number, request: EnqueueRequest): Promise<void> {
  for (let done = 0; done < count; done += BATCH) {
    const size = Math.min(BATCH, count - done);
    await driver.enqueueMany(Array.from({ length: size }, () => request));
  }
}

async function claimBatch(driver: Driver, visibilityTimeoutMs = HOUR): Promise<ClaimedJob[]> {
  return [
    ...(await driver.claim({ queues: [QUEUE], limit: BATCH, workerId: 'w', visibilityTimeoutMs })),
  ];
}

/**
 * One lane (queue `hot`, name `task`) holding `size` rows in each of its heaps, each placed so
 * the measured rows sort first: running with a longer lease, completed, delayed until later, and
 * a ready backlog of a lower priority. Every hot call below meets heaps of `size` rows and takes
 * from or adds to their tops.
 */
async function world(size: number): Promise<Driver> {
  const { driver } = setup();
  await fill(driver, size, { name: 'task', queue: QUEUE, payload: 'held' });
  for (let held = 0; held < size; held += BATCH) await claimBatch(driver, 2 * HOUR);
  await fill(driver, size, { name: 'task', queue: QUEUE, payload: 'done' });
  for (let done = 0; done < size; done += BATCH) {
    await driver.ackMany((await claimBatch(driver)).map((job) => ({ fence: fenceOf(job) })));
  }
  await fill(driver, size, { name: 'task', queue: QUEUE, runAt: T0 + 2 * HOUR, payload: 'later' });
  await fill(driver, size, { name: 'task', queue: QUEUE, priority: -1, payload: 'backlog' });
  return driver;
}

type Kind = 'enqueueMany' | 'claim' | 'ackMany' | 'nackMany' | 'extend';

/** Rows the meter counted per job for each hot call, one batch of each against `driver`. */
async function workPerJob(driver: Driver): Promise<Record<Kind, number>> {
  const meter = meterOf(driver);
  const counted = async (jobs: number, call: () => Promise<unknown>) => {
    const before = meter.visits;
    await call();
    return (meter.visits - before) / jobs;
  };
  const enqueueMany = await counted(BATCH, () =>
    fill(driver, BATCH, { name: 'task', queue: QUEUE, priority: 1, payload: 'hot' }),
  );
  let jobs: ClaimedJob[] = [];
  const claim = await counted(BATCH, async () => {
    jobs = await claimBatch(driver);
  });
  expect(jobs.map((job) => job.payload)).toEqual(Array(BATCH).fill('hot'));
  const acked = jobs.slice(0, 500);
  const nacked = jobs.slice(500, 750);
  const extended = jobs.slice(750);
  const ackMany = await counted(acked.length, async () => {
    const landed = await driver.ackMany(acked.map((job) => ({ fence: fenceOf(job) })));
    expect(landed.every(Boolean)).toBe(true);
  });
  const nackMany = await counted(nacked.length, async () => {
    const landed = await driver.nackMany(
      nacked.map((job) => ({
        fence: fenceOf(job),
        error: { message: 'later' },
        retryAt: T0 + HOUR,
      })),
    );
    expect(landed.every(Boolean)).toBe(true);
  });
  const extend = await counted(extended.length, async () => {
    for (const job of extended) expect(await driver.extend(fenceOf(job), HOUR)).toBe(true);
  });
  return { enqueueMany, claim, ackMany, nackMany, extend };
}

let small: Record<Kind, number>;
let large: Record<Kind, number>;

beforeAll(async () => {
  small = await workPerJob(await world(SMALL));
  large = await workPerJob(await world(LARGE));
}, 120_000);

describe('memory driver hot path at a 100k backlog against a 1k one: work per job grows as log n', () => {
  const kinds: readonly Kind[] = ['enqueueMany', 'claim', 'ackMany', 'nackMany', 'extend'];
  it.each(kinds)('%s examines at most a few rows per level of a heap, at either size', (kind) => {
    // A heap of n rows is log2(n) levels deep: 17 at 100k, 10 at 1k. A scan would be 100×.
    const levels = { small: Math.log2(4 * SMALL), large: Math.log2(4 * LARGE) };
    expect({ kind, small: small[kind], large: large[kind] }).toSatisfy(
      () => small[kind] <= 4 * levels.small && large[kind] <= 4 * levels.large,
    );
    // From 1k to 100k rows a log n call grows by 17/10; a linear one would grow 100×.
    expect({ kind, ratio: large[kind] / Math.max(small[kind], 1) }).toSatisfy(
      () => large[kind] <= 2 * Math.max(small[kind], 1),
    );
  });
});
