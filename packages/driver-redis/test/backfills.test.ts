import { randomUUID } from 'node:crypto';
import { BACKFILL_RUNS_KEPT, createManualClock, type Driver } from '@berth/core';
import { describe, expect, it } from 'vitest';
import { keysFor, laneOf } from '../src/keys.js';
import { adminRedis, redisDriver } from './redis-factory.js';

const T0 = Date.UTC(2026, 0, 1);

const admin = adminRedis();

/** Starts a run and, unless `keep`, cancels it; answers its runId. */
async function run(driver: Driver, name: string, tenantId?: string, keep = false) {
  const runId = randomUUID();
  const started = await driver.backfills.start({
    runId,
    jobId: randomUUID(),
    name,
    maxActive: 1_000,
    ...(tenantId === undefined ? {} : { tenantId }),
  });
  expect(started.started).toBe(true);
  if (!keep) await driver.backfills.transition(runId, { from: ['running'], to: 'cancelled' });
  return runId;
}

describe('redis backfill ledger', () => {
  it('a start past BACKFILL_RUNS_KEPT deletes the dropped runs with every index entry, so the keys stay bounded by retention, and dispose drops them all', async () => {
    const clock = createManualClock(T0);
    const { driver, prefix, dispose } = await redisDriver({ clock });
    const keys = keysFor(prefix);
    try {
      const active = await run(driver, 'n', 'acme', true);
      for (let index = 0; index < BACKFILL_RUNS_KEPT + 5; index += 1) {
        await clock.advance(1);
        await run(driver, 'n', 'acme');
      }
      await clock.advance(1);
      await run(driver, 'n', 'acme', true);
      const kept = BACKFILL_RUNS_KEPT + 2;
      for (const index of [
        keys.backfillsOrder(),
        keys.backfillsName('n'),
        keys.backfillsTenant('acme'),
        // The same length-first pair the scripts' qn builds.
        keys.backfillsHolder(laneOf('acme', 'n')),
      ]) {
        expect(await admin().zcard(index), index).toBe(kept);
      }
      const hashes = await admin().keys(`${keys.base}backfill:*`);
      expect(hashes.length).toBe(kept);
      expect(await driver.backfills.get(active)).toMatchObject({ status: 'running' });
    } finally {
      await dispose();
    }
    expect(await admin().keys(keys.pattern)).toEqual([]);
  });

  it('a cursor of any JSON text, and an error of any text a backend can store, round-trip unchanged', async () => {
    const { driver, dispose } = await redisDriver();
    try {
      const cursor = { after: 'zürich \u{1F600}', at: [1.5, -2e-7, null, true], quote: '"\\\n' };
      const runId = await run(driver, 'n', undefined, true);
      const landed = await driver.backfills.commit(runId, {
        jobId: (await driver.backfills.get(runId))?.jobId ?? '',
        passes: 0,
        next: cursor,
        rows: 3,
      });
      expect(landed?.run.cursor).toEqual(cursor);
      // Core drops NUL before any backend sees it (the kit checks that); the rest is kept.
      const error = 'Error: ünïcode \u{1F600}\n    at line 1 "quoted" \\ back';
      const failed = await driver.backfills.transition(runId, {
        from: ['running'],
        to: 'failed',
        error,
      });
      expect(failed?.run.lastError).toBe(error);
      expect((await driver.backfills.get(runId))?.lastError).toBe(error);
    } finally {
      await dispose();
    }
  });

  it('list walks past more runs than one slice to find the ones of a status, and answers at most its limit', async () => {
    const clock = createManualClock(T0);
    const { driver, dispose } = await redisDriver({ clock });
    try {
      const paused = await run(driver, 'old', undefined, true);
      await driver.backfills.transition(paused, { from: ['running'], to: 'paused' });
      const names = Array.from({ length: 5 }, (_, index) => `n${index}`);
      for (let index = 0; index < 250; index += 1) {
        await clock.advance(1);
        await run(driver, names[index % names.length] as string);
      }
      const found = await driver.backfills.list({ status: 'paused' });
      expect(found.map((one) => one.runId)).toEqual([paused]);
      const newest = await driver.backfills.list({ limit: 100 });
      expect(newest.length).toBe(100);
      expect(newest.map((one) => one.startedAt)).toEqual(
        Array.from({ length: 100 }, (_, index) => T0 + 250 - index),
      );
    } finally {
      await dispose();
    }
  });
});
