import { randomUUID } from 'node:crypto';
import type { BackfillRun, Driver } from '@berth/core';
import { BACKFILL_RUNS_KEPT } from '@berth/core';
import { expect } from 'vitest';
import type { KitCase, KitGroup } from '../../kit.js';
import { backfillRaceCases } from './backfills-races.js';
import { backfillScreenCases } from './backfills-screens.js';

/** Starts a run of `name` and answers it; the case fails when the ledger refuses. */
export async function startRun(
  driver: Driver,
  name: string,
  extra: { tenantId?: string; cursor?: unknown; maxActive?: number } = {},
): Promise<BackfillRun> {
  const started = await driver.backfills.start({
    runId: randomUUID(),
    jobId: randomUUID(),
    name,
    ...(extra as object),
  });
  if (!started.started) throw new Error(`expected ${name} to start, the ledger refused it`);
  return started.run;
}

/** Commits the run's next pass as its own runner and answers the change. */
export async function commitNext(driver: Driver, run: BackfillRun, next: unknown, rows: number) {
  const current = await driver.backfills.get(run.runId);
  if (current === undefined) throw new Error(`run ${run.runId} is gone`);
  return driver.backfills.commit(run.runId, {
    jobId: current.jobId,
    passes: current.passes,
    next: next as never,
    rows,
  });
}

const ledgerCases: readonly KitCase[] = [
  {
    title:
      'start stores the run running at the clock with no pass done; get answers it, and a retried start with the same runId answers the same run and stores nothing new',
    run: async ({ driver, t0, clock }) => {
      const request = {
        runId: randomUUID(),
        jobId: randomUUID(),
        name: 'reindex',
        cursor: { after: 10 },
      };
      const first = await driver.backfills.start(request);
      const run: BackfillRun = {
        runId: request.runId,
        name: 'reindex',
        status: 'running',
        cursor: { after: 10 },
        passes: 0,
        rowsDone: 0,
        jobId: request.jobId,
        startedAt: t0,
        updatedAt: t0,
      };
      expect(first).toEqual({ started: true, run });
      expect(await driver.backfills.get(request.runId)).toEqual(run);
      await clock.advance(1_000);
      expect(await driver.backfills.start(request)).toEqual(first);
      expect(await driver.backfills.list()).toEqual([run]);
      expect(await driver.backfills.get(randomUUID())).toBeUndefined();
    },
  },
  {
    title:
      'one run per name at a time: a second start answers { started: false, active } while the first runs or is paused, and succeeds once it ended',
    run: async ({ driver }) => {
      const first = await startRun(driver, 'reindex');
      const refused = await driver.backfills.start({
        runId: randomUUID(),
        jobId: randomUUID(),
        name: 'reindex',
      });
      expect(refused).toEqual({ started: false, active: [first] });
      await driver.backfills.transition(first.runId, { from: ['running'], to: 'paused' });
      const again = await driver.backfills.start({
        runId: randomUUID(),
        jobId: randomUUID(),
        name: 'reindex',
      });
      expect(again.started).toBe(false);
      await startRun(driver, 'other');
      await startRun(driver, 'reindex', { tenantId: 'acme' });
      await driver.backfills.transition(first.runId, { from: ['paused'], to: 'cancelled' });
      const after = await startRun(driver, 'reindex');
      expect(after.status).toBe('running');
      expect((await driver.backfills.list({ name: 'reindex' })).length).toBe(3);
    },
  },
  {
    title:
      'maxActive lets that many runs of a name hold at once; the refusal lists the active runs oldest start first',
    run: async ({ driver, clock }) => {
      const a = await startRun(driver, 'n', { maxActive: 2 });
      await clock.advance(1);
      const b = await startRun(driver, 'n', { maxActive: 2 });
      const refused = await driver.backfills.start({
        runId: randomUUID(),
        jobId: randomUUID(),
        name: 'n',
        maxActive: 2,
      });
      expect(refused).toEqual({ started: false, active: [a, b] });
    },
  },
  {
    title:
      'a commit advances the cursor, adds its rows and counts the pass; a commit naming a pass already counted, or another runner job, changes nothing and answers the run as stored',
    run: async ({ driver, clock, t0 }) => {
      const run = await startRun(driver, 'n');
      await clock.advance(500);
      const landed = await driver.backfills.commit(run.runId, {
        jobId: run.jobId,
        passes: 0,
        next: { after: 100 },
        rows: 100,
      });
      const afterOne = {
        ...run,
        cursor: { after: 100 },
        passes: 1,
        rowsDone: 100,
        updatedAt: t0 + 500,
      };
      expect(landed).toEqual({ changed: true, run: afterOne });
      const again = { jobId: run.jobId, passes: 0, next: { after: 100 }, rows: 100 };
      expect(await driver.backfills.commit(run.runId, again)).toEqual({
        changed: false,
        run: afterOne,
      });
      const stranger = { jobId: randomUUID(), passes: 1, next: { after: 200 }, rows: 100 };
      expect(await driver.backfills.commit(run.runId, stranger)).toEqual({
        changed: false,
        run: afterOne,
      });
      expect(await driver.backfills.get(run.runId)).toEqual(afterOne);
      expect(await driver.backfills.commit(randomUUID(), again)).toBeUndefined();
    },
  },
  {
    title:
      'a commit whose next is null completes the run and sets finishedAt; nothing commits after',
    run: async ({ driver, clock, t0 }) => {
      const run = await startRun(driver, 'n');
      await commitNext(driver, run, 'k-5', 5);
      await clock.advance(2_000);
      const done = await commitNext(driver, run, null, 3);
      const completed = {
        ...run,
        status: 'completed',
        cursor: null,
        passes: 2,
        rowsDone: 8,
        updatedAt: t0 + 2_000,
        finishedAt: t0 + 2_000,
      };
      expect(done).toEqual({ changed: true, run: completed });
      expect((await commitNext(driver, run, 'k-9', 1))?.changed).toBe(false);
      expect(await driver.backfills.get(run.runId)).toEqual(completed);
    },
  },
  {
    title:
      'a pass in flight when a pause landed still commits; one in flight at a cancel does not, and a final run moves no more',
    run: async ({ driver }) => {
      const run = await startRun(driver, 'n');
      await driver.backfills.transition(run.runId, { from: ['running'], to: 'paused' });
      const paused = await commitNext(driver, run, 1, 10);
      expect(paused?.changed).toBe(true);
      expect(paused?.run).toMatchObject({ status: 'paused', cursor: 1, passes: 1, rowsDone: 10 });
      const cancelled = await driver.backfills.transition(run.runId, {
        from: ['running', 'paused'],
        to: 'cancelled',
      });
      expect(cancelled?.changed).toBe(true);
      expect((await commitNext(driver, run, 2, 10))?.changed).toBe(false);
      const resumed = await driver.backfills.transition(run.runId, {
        from: ['paused'],
        to: 'running',
      });
      expect(resumed).toEqual({ changed: false, run: cancelled?.run });
    },
  },
  {
    title:
      "a transition lands only from a listed status: pause, a resume that hands the run to a new job (the old job's commits then land nothing), a failure with its error, finishedAt on a final status",
    run: async ({ driver, clock, t0 }) => {
      const run = await startRun(driver, 'n');
      await clock.advance(100);
      const paused = await driver.backfills.transition(run.runId, {
        from: ['running'],
        to: 'paused',
      });
      expect(paused).toEqual({
        changed: true,
        run: { ...run, status: 'paused', updatedAt: t0 + 100 },
      });
      const noop = await driver.backfills.transition(run.runId, {
        from: ['running'],
        to: 'paused',
      });
      expect(noop).toEqual({ changed: false, run: paused?.run });
      const jobId = randomUUID();
      const resumed = await driver.backfills.transition(run.runId, {
        from: ['paused'],
        to: 'running',
        jobId,
      });
      expect(resumed?.run).toMatchObject({ status: 'running', jobId });
      const stale = { jobId: run.jobId, passes: 0, next: 1, rows: 1 };
      expect((await driver.backfills.commit(run.runId, stale))?.changed).toBe(false);
      const fresh = { jobId, passes: 0, next: 1, rows: 1 };
      expect((await driver.backfills.commit(run.runId, fresh))?.changed).toBe(true);
      await clock.advance(100);
      const failed = await driver.backfills.transition(run.runId, {
        from: ['running'],
        to: 'failed',
        error: 'Error: the table is gone',
      });
      expect(failed?.run).toMatchObject({
        status: 'failed',
        lastError: 'Error: the table is gone',
        finishedAt: t0 + 200,
        updatedAt: t0 + 200,
      });
      const missing = await driver.backfills.transition(randomUUID(), {
        from: ['running'],
        to: 'paused',
      });
      expect(missing).toBeUndefined();
    },
  },
  {
    title:
      'list answers the newest start first and filters by name, status and tenant, up to limit',
    run: async ({ driver, clock }) => {
      const a = await startRun(driver, 'a');
      await clock.advance(1);
      const b = await startRun(driver, 'b', { tenantId: 'acme' });
      await clock.advance(1);
      const c = await startRun(driver, 'c');
      await driver.backfills.transition(c.runId, { from: ['running'], to: 'paused' });
      const ids = (runs: readonly BackfillRun[]) => runs.map((run) => run.runId);
      expect(ids(await driver.backfills.list())).toEqual([c.runId, b.runId, a.runId]);
      expect(ids(await driver.backfills.list({ limit: 2 }))).toEqual([c.runId, b.runId]);
      expect(ids(await driver.backfills.list({ name: 'a' }))).toEqual([a.runId]);
      expect(ids(await driver.backfills.list({ status: 'paused' }))).toEqual([c.runId]);
      expect(ids(await driver.backfills.list({ tenantId: 'acme' }))).toEqual([b.runId]);
      expect(await driver.backfills.list({ name: 'a', status: 'paused' })).toEqual([]);
    },
  },
  {
    title:
      "a tenant sees only its own runs: get and transition of another tenant's run answer undefined and change nothing",
    run: async ({ driver }) => {
      const run = await startRun(driver, 'n', { tenantId: 'acme' });
      expect(await driver.backfills.get(run.runId, { tenantId: 'other' })).toBeUndefined();
      expect(await driver.backfills.get(run.runId, { tenantId: 'acme' })).toEqual(run);
      const change = { tenantId: 'other', from: ['running'] as const, to: 'cancelled' as const };
      expect(await driver.backfills.transition(run.runId, change)).toBeUndefined();
      expect((await driver.backfills.get(run.runId))?.status).toBe('running');
      expect(await driver.backfills.list({ tenantId: 'other' })).toEqual([]);
    },
  },
  {
    title: `the ledger keeps the newest ${BACKFILL_RUNS_KEPT} final runs of a name: a start drops the oldest past it, and never an active run`,
    costMs: 3_000,
    timeoutMs: 60_000,
    run: async ({ driver, clock }) => {
      const first = await startRun(driver, 'n', { maxActive: 2 });
      const ended: string[] = [];
      for (let index = 0; index < BACKFILL_RUNS_KEPT + 1; index += 1) {
        await clock.advance(1);
        const run = await startRun(driver, 'n', { maxActive: 2 });
        await driver.backfills.transition(run.runId, { from: ['running'], to: 'cancelled' });
        ended.push(run.runId);
      }
      await clock.advance(1);
      const last = await startRun(driver, 'n', { maxActive: 2 });
      const kept = await driver.backfills.list({ name: 'n', limit: 100 });
      expect(kept.map((run) => run.runId)).toEqual([
        last.runId,
        ...ended.slice(1).reverse(),
        first.runId,
      ]);
      expect(await driver.backfills.get(ended[0] as string)).toBeUndefined();
    },
  },
  {
    title: 'a cursor of any JSON kind round-trips, and an answered cursor is a copy',
    run: async ({ driver }) => {
      for (const cursor of [null, 0, 'k', [1, 'two', { three: 3 }], { id: 5, at: '2026' }]) {
        const run = await startRun(driver, `n-${JSON.stringify(cursor)}`, { cursor });
        expect(run.cursor).toEqual(cursor);
        const change = await commitNext(driver, run, cursor ?? 'end', 0);
        expect(change?.run.cursor).toEqual(cursor ?? 'end');
      }
      const run = await startRun(driver, 'copy', { cursor: { id: 1 } });
      (run.cursor as { id: number }).id = 99;
      expect((await driver.backfills.get(run.runId))?.cursor).toEqual({ id: 1 });
    },
  },
];

export const backfillsGroup: KitGroup = {
  name: 'backfills',
  cases: [...ledgerCases, ...backfillRaceCases, ...backfillScreenCases],
};
