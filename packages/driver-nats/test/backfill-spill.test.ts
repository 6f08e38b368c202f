import { randomUUID } from 'node:crypto';
import { BACKFILL_RUNS_KEPT, createManualClock, type Driver } from '@berth/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inlineShare } from '../src/backfill-heavy.js';
import type { NatsContext } from '../src/context.js';
import { natsDriver, openTestContext } from './nats-factory.js';

/**
 * One name's ledger entry holds all its runs in one message: with many active runs of large
 * cursors, the cursors past the entry's inline share go to parts, the entry stays under the
 * server's cap, and parts are removed when replaced or when their run is dropped.
 */

const RUNS = 80;
const NAME = 'reindex';
const cursorOf = (at: number) => ({ at, pad: 'x'.repeat(4_000) });

let driver: Driver;
let context: NatsContext;
let dispose: () => Promise<void>;

beforeAll(async () => {
  const made = await natsDriver({ clock: createManualClock(Date.UTC(2026, 0, 1)) });
  driver = made.driver;
  dispose = made.dispose;
  context = await openTestContext(made.url, made.prefix);
});

afterAll(async () => {
  context.stopStatus();
  context.mirror.stop();
  context.wake.close();
  await context.nc.close();
  await dispose();
});

async function keys(filter: string): Promise<string[]> {
  const found: string[] = [];
  for await (const key of await context.aux.keys(filter)) found.push(key);
  return found;
}

const partsOf = (runId: string) => keys(`x.${context.subjects.backfillOwner(runId)}.>`);

describe('a backfill ledger entry with many active runs of large cursors', () => {
  // All start at one instant, so retention drops the smallest runIds: started last, they are
  // the ones whose cursors no longer fit inline.
  const runIds = Array.from({ length: RUNS }, () => randomUUID()).sort();
  const started = [...runIds].reverse();

  it('keeps the entry under the cap and every cursor reads back, spilled or not', async () => {
    for (const [at, runId] of started.entries()) {
      const answer = await driver.backfills.start({
        runId,
        jobId: randomUUID(),
        name: NAME,
        cursor: cursorOf(at),
        maxActive: RUNS,
      });
      expect(answer).toMatchObject({ started: true, run: { cursor: cursorOf(at) } });
    }
    const entry = await context.aux.get(context.subjects.backfillRuns(NAME, undefined));
    expect(entry?.value.length).toBeLessThan(inlineShare(context) + RUNS * 512);
    expect((await keys('x.>')).length).toBeGreaterThan(0);
    expect(await partsOf(started[0] as string)).toEqual([]);
    const listed = await driver.backfills.list({ name: NAME, limit: 100 });
    expect(listed.map((run) => run.cursor)).toEqual(
      runIds.map((runId) => cursorOf(started.indexOf(runId))).reverse(),
    );
  }, 60_000);

  it('a commit of a spilled cursor replaces its part', async () => {
    const runId = runIds[0] as string;
    const before = await partsOf(runId);
    expect(before.length).toBe(1);
    const run = await driver.backfills.get(runId);
    if (run === undefined) throw new Error('the run is gone');
    const pass = { jobId: run.jobId, passes: 0, next: cursorOf(-1), rows: 1 };
    const change = await driver.backfills.commit(runId, pass);
    expect(change).toMatchObject({ changed: true, run: { cursor: cursorOf(-1), passes: 1 } });
    expect(await driver.backfills.get(runId)).toEqual(change?.run);
    const after = await partsOf(runId);
    expect(after.length).toBe(1);
    expect(after).not.toEqual(before);
  }, 60_000);

  it(`a start past ${BACKFILL_RUNS_KEPT} final runs drops the oldest with their pointers and parts`, async () => {
    for (const runId of runIds) {
      await driver.backfills.transition(runId, { from: ['running'], to: 'cancelled' });
    }
    const last = await driver.backfills.start({
      runId: randomUUID(),
      jobId: randomUUID(),
      name: NAME,
    });
    expect(last.started).toBe(true);
    const dropped = runIds.slice(0, RUNS - BACKFILL_RUNS_KEPT);
    for (const runId of dropped) {
      expect(await driver.backfills.get(runId)).toBeUndefined();
      expect(await context.aux.get(context.subjects.backfillPointer(runId))).toBeNull();
    }
    expect(await keys('x.>')).toEqual([]);
    expect((await driver.backfills.list({ name: NAME, limit: 100 })).length).toBe(
      BACKFILL_RUNS_KEPT + 1,
    );
  }, 60_000);
});
