import { randomUUID } from 'node:crypto';
import { createManualClock, DEFAULT_LIFECYCLE_RETENTION, type Driver } from '@berth/core';
import type { ScreenedClaim } from '@berth/core/driver';
import { describe, expect, it } from 'vitest';
import { CLAIM, claimArgs } from '../src/claim.js';
import { createContext } from '../src/context.js';
import { asArray } from '../src/decode.js';
import { keysFor, laneOf } from '../src/keys.js';
import { PROMOTE_SLACK } from '../src/lua/claim.js';
import { adminRedis, redisDriver } from './redis-factory.js';

const T0 = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;

const admin = adminRedis();

/** Enqueues `count` rows in batches of 1,000, each made by `request(index)`. */
async function fill(
  driver: Driver,
  count: number,
  request: (index: number) => { name: string; runAt?: number; priority?: number },
): Promise<void> {
  for (let first = 0; first < count; first += 1_000) {
    const batch = Array.from({ length: Math.min(1_000, count - first) }, (_, offset) => ({
      ...request(first + offset),
      queue: 'q',
    }));
    await driver.enqueueMany(batch);
  }
}

/** Runs the claim script itself, answering the rows it claimed and the index members it read. */
async function claimCounting(prefix: string, now: number, request: Partial<ScreenedClaim>) {
  const context = createContext({
    redis: admin(),
    keys: keysFor(prefix),
    clock: createManualClock(now),
    hooks: {},
    lifecycleRetention: DEFAULT_LIFECYCLE_RETENTION,
  });
  const screened: ScreenedClaim = {
    queues: ['q'],
    limit: 1,
    workerId: 'counting',
    visibilityTimeoutMs: HOUR,
    names: undefined,
    dropExhausted: [],
    ...request,
  };
  const [claimed, , read] = asArray(
    await context.run(CLAIM, now, claimArgs(screened, randomUUID(), DEFAULT_LIFECYCLE_RETENTION)),
    'claim',
  );
  return { claimed: asArray(claimed, 'claim').length, read: Number(read) };
}

describe('redis claim does bounded work whatever the backlog', () => {
  it('claim(1) behind 100,000 due delayed rows moves only the one it takes, and takes the earliest', async () => {
    const clock = createManualClock(T0);
    const { driver, prefix, dispose } = await redisDriver({ clock });
    try {
      await fill(driver, 100_000, (index) => ({ name: 'later', runAt: T0 + 1_000 + index }));
      clock.set(T0 + 200_000);
      const keys = keysFor(prefix);

      const { claimed, read } = await claimCounting(prefix, clock.now(), { limit: 1 });
      expect(claimed).toBe(1);
      // The priority's first row, moved, then claimed.
      expect(read).toBe(2);
      // Only the row taken left the waiting set; the rest wait for later claims.
      expect(await admin().zcard(keys.waitingName(laneOf('q', 'later')))).toBe(100_000 - 1);
      const running = await driver.list({ state: 'running', limit: 5 });
      expect(running.jobs.map((job) => job.runAt)).toEqual([T0 + 1_000]);

      // Every due row is still claimed in the end, each exactly once, earliest first.
      const seen = new Set<string>();
      let previous = -1;
      for (let round = 0; round < 3; round += 1) {
        const jobs = await driver.claim({
          queues: ['q'],
          workerId: 'w',
          visibilityTimeoutMs: HOUR,
          limit: 1_000,
        });
        for (const job of jobs) {
          expect(seen.has(job.id)).toBe(false);
          seen.add(job.id);
          expect(job.runAt).toBeGreaterThan(previous);
          previous = job.runAt;
        }
      }
      expect(seen.size).toBe(3_000);
    } finally {
      await dispose();
    }
  }, 120_000);

  it('claim(1) behind 10,000 due rows and 10,000 rows due later over ten higher priorities takes the priority-5 row that fell due last, reading one row per priority above it', async () => {
    const clock = createManualClock(T0);
    const { driver, prefix, dispose } = await redisDriver({ clock });
    try {
      await fill(driver, 10_000, (index) => ({ name: 'job', runAt: T0 + 1_000 + index }));
      await fill(driver, 10_000, (index) => ({
        name: 'job',
        runAt: T0 + HOUR,
        priority: 6 + (index % 10),
      }));
      const { id } = await driver.enqueue({
        name: 'job',
        queue: 'q',
        runAt: T0 + 50_000,
        priority: 5,
      });
      clock.set(T0 + 100_000);

      const { claimed, read } = await claimCounting(prefix, clock.now(), { limit: 1 });
      expect(claimed).toBe(1);
      // The first row of ten priorities not due yet, then priority 5's row, moved and claimed.
      expect(read).toBe(10 + 2);
      expect((await driver.get(id))?.state).toBe('running');
    } finally {
      await dispose();
    }
  }, 120_000);

  it('claim(1) over 20,000 lapsed leases moves at most limit + slack of them', async () => {
    const clock = createManualClock(T0);
    const { driver, prefix, dispose } = await redisDriver({ clock });
    try {
      await fill(driver, 20_000, () => ({ name: 'job' }));
      for (let round = 0; round < 20; round += 1) {
        await driver.claim({
          queues: ['q'],
          workerId: 'w',
          visibilityTimeoutMs: 1_000,
          limit: 1_000,
        });
      }
      clock.advance(2_000);
      const keys = keysFor(prefix);
      expect(await admin().zcard(keys.leasesName(laneOf('q', 'job')))).toBe(20_000);

      const { claimed, read } = await claimCounting(prefix, clock.now(), { limit: 1 });
      expect(claimed).toBe(1);
      expect(read).toBeLessThanOrEqual(1 + PROMOTE_SLACK + 1);
      // The claimed row holds a fresh lease again.
      expect(await admin().zcard(keys.leasesName(laneOf('q', 'job')))).toBe(
        20_000 - (1 + PROMOTE_SLACK) + 1,
      );
    } finally {
      await dispose();
    }
  }, 120_000);

  it('claim({ names }) reads only rows of its names, not the 20,000 of other names ahead of them', async () => {
    const clock = createManualClock(T0);
    const { driver, prefix, dispose } = await redisDriver({ clock });
    try {
      await fill(driver, 20_000, () => ({ name: 'other', priority: 9 }));
      await fill(driver, 5_000, (index) => ({ name: 'other-later', runAt: T0 + 10 + index }));
      const wanted = await driver.enqueue({ name: 'wanted', queue: 'q', runAt: T0 + 20_000 });
      clock.set(T0 + 30_000);

      const { claimed, read } = await claimCounting(prefix, clock.now(), {
        limit: 1,
        names: ['wanted'],
      });
      expect(claimed).toBe(1);
      expect(read).toBeLessThanOrEqual(2);
      expect((await driver.get(wanted.id))?.state).toBe('running');
      // The other name's due rows were not touched by a claim that does not want them.
      expect(await admin().zcard(keysFor(prefix).waitingName(laneOf('q', 'other-later')))).toBe(
        5_000,
      );
    } finally {
      await dispose();
    }
  }, 120_000);
});
