import type { ClaimedJob, Driver, ManualClock } from '@berth/core';
import { expect } from 'vitest';

/** One store the scale group fills and measures: a driver over it and the clock it reads. */
export interface ScaleStore {
  readonly driver: Driver;
  readonly clock: ManualClock;
}

/** Rows per enqueueMany/claim/ackMany call while seeding. */
const SEED_BATCH = 1_000;
/** Calls the seeder keeps in flight for calls that have no batch form (publish, suspend). */
const IN_FLIGHT = 50;
const HOUR = 3_600_000;
const WORKER = 'seeder';

/** Where the scale group puts each kind of row: one shared hot queue, and the rest apart. */
export const HOT = 'hot';
const DONE = 'done';
const WAITING = 'waiting';

/** Runs `count` calls of `make(index)`, IN_FLIGHT at a time. */
async function inWaves(count: number, make: (index: number) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < count; start += IN_FLIGHT) {
    const size = Math.min(IN_FLIGHT, count - start);
    await Promise.all(Array.from({ length: size }, (_, offset) => make(start + offset)));
  }
}

async function claimAll(driver: Driver, queue: string, count: number): Promise<ClaimedJob[]> {
  const claimed: ClaimedJob[] = [];
  while (claimed.length < count) {
    const batch = await driver.claim({
      queues: [queue],
      limit: Math.min(SEED_BATCH, count - claimed.length),
      workerId: WORKER,
      visibilityTimeoutMs: HOUR,
    });
    expect(batch.length).toBeGreaterThan(0);
    claimed.push(...batch);
  }
  return claimed;
}

const fenceOf = (job: ClaimedJob) => ({ jobId: job.id, workerId: job.claimedBy, claim: job.claim });

/** Claims every row named `name` of `queue` (`count` of them), on leases of `leaseMs`. */
async function claimNamed(
  driver: Driver,
  queue: string,
  name: string,
  count: number,
  leaseMs: number,
): Promise<void> {
  let claimed = 0;
  while (claimed < count) {
    const batch = await driver.claim({
      queues: [queue],
      names: [name],
      limit: Math.min(SEED_BATCH, count - claimed),
      workerId: WORKER,
      visibilityTimeoutMs: leaseMs,
    });
    expect(batch.length).toBeGreaterThan(0);
    claimed += batch.length;
  }
}

/**
 * Adds `count` rows of each kind the bounded calls must not pay for: ready rows of the hot queue
 * (priority 0), future rows ahead of them in claim order (delayed, priority 9), rows whose lease
 * lapsed behind them in claim order (hot queue, priority -1, claimable again), finished rows
 * (completed, in their own queue), expired events, and (a tenth as many, one call each) rows
 * suspended on events nobody publishes. Leaves the clock 1 ms later, so the events are expired
 * and the leases lapsed.
 */
export async function seed(store: ScaleStore, count: number): Promise<void> {
  const { driver, clock } = store;
  const future = clock.now() + HOUR;
  for (let made = 0; made < count; made += SEED_BATCH) {
    const size = Math.min(SEED_BATCH, count - made);
    const many = (request: Parameters<Driver['enqueue']>[0]) =>
      driver.enqueueMany(Array.from({ length: size }, () => request));
    await many({ name: 'backlog', queue: HOT });
    await many({ name: 'backlog', queue: HOT, priority: 9, runAt: future });
    await many({ name: 'lapsing', queue: HOT, priority: -1 });
    await claimNamed(driver, HOT, 'lapsing', size, 1);
    await many({ name: 'backlog', queue: DONE });
    const done = await claimAll(driver, DONE, size);
    const acked = await driver.ackMany(done.map((job) => ({ fence: fenceOf(job) })));
    expect(acked.every(Boolean)).toBe(true);
  }
  const waiters = Math.max(1, Math.floor(count / 10));
  for (let made = 0; made < waiters; made += SEED_BATCH) {
    const size = Math.min(SEED_BATCH, waiters - made);
    await driver.enqueueMany(Array.from({ length: size }, () => ({ name: 'w', queue: WAITING })));
    const claimed = await claimAll(driver, WAITING, size);
    await inWaves(claimed.length, async (index) => {
      const job = claimed[index] as ClaimedJob;
      await driver.suspend(fenceOf(job), { until: future, waitFor: `never-${index % 100}` });
    });
  }
  await inWaves(count, (index) => driver.events.publish(`old-${index % 100}`, index, { ttl: 1 }));
  await clock.advance(1);
}

/** Elapsed ms of one call of `work`. */
async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** Samples per measurement: the fastest is kept, as noise only ever adds time. */
export const COST_SAMPLES = 7;
/**
 * A sample faster than this is read as this: below it the box's scheduling noise is as large as
 * the work, and a ratio of two noises decides nothing. A scan of a big backlog costs far more.
 */
const NOISE_FLOOR_MS = 2;

/**
 * The fastest of COST_SAMPLES runs of `small` and of `big`, each floored at the noise floor,
 * their samples taken in turn: a burst of load on the box lands on both alike, so their ratio
 * says what the backlog costs, not when the box was busy (measured one after the other, a few
 * busy seconds during one of them decided the case).
 */
export async function costs(
  small: () => Promise<unknown>,
  big: () => Promise<unknown>,
): Promise<{ small: number; big: number }> {
  let best = { small: Number.POSITIVE_INFINITY, big: Number.POSITIVE_INFINITY };
  for (let sample = 0; sample < COST_SAMPLES; sample += 1) {
    // Each goes first every other time, so neither always runs just after the other.
    const bigFirst = sample % 2 === 1;
    const before = await timed(bigFirst ? big : small);
    const after = await timed(bigFirst ? small : big);
    const [ofSmall, ofBig] = bigFirst ? [after, before] : [before, after];
    best = { small: Math.min(best.small, ofSmall), big: Math.min(best.big, ofBig) };
  }
  return { small: Math.max(best.small, NOISE_FLOOR_MS), big: Math.max(best.big, NOISE_FLOOR_MS) };
}
