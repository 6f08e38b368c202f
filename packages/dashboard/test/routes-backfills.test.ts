import {
  type BackfillRun,
  BerthError,
  backfillControl,
  createManualClock,
  type Driver,
  type ManualClock,
} from '@berth/core';
import { createMemoryDriver } from '@berth/driver-memory';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { problemOf } from '../src/http/respond.js';
import type { BackfillResponse, BackfillsResponse, DashboardOptions } from '../src/index.js';
import {
  getApi,
  openSession,
  postApi,
  startDashboard,
  type TestDashboard,
} from './support/server.js';

interface Refusal {
  readonly error: { readonly code: string; readonly message: string; readonly fix?: string };
}

const T0 = Date.UTC(2026, 5, 1, 12);
const MISSING = '0190a0b0-0000-4000-8000-000000000000';
let clock: ManualClock;
let driver: Driver;
const opened: TestDashboard[] = [];

async function start(options: Omit<DashboardOptions, 'driver'> = {}) {
  const served = await startDashboard({ driver, ...options });
  opened.push(served);
  return served;
}

/** Commits one pass of `rows` rows to `next`, as the run's runner would. */
async function commitPass(run: BackfillRun, rows: number, next: number | null) {
  const change = await driver.backfills.commit(run.runId, {
    jobId: run.jobId,
    passes: run.passes,
    next,
    rows,
  });
  if (change?.changed !== true) throw new Error(`the pass of ${run.runId} did not commit`);
  return change.run;
}

beforeEach(() => {
  clock = createManualClock(T0);
  driver = createMemoryDriver({ clock });
});
afterEach(async () => {
  for (const served of opened.splice(0)) await served.close();
  await driver.close();
});

describe('GET /api/backfills', () => {
  it('lists runs newest start first with their progress: rows done, passes, rows per second from start to last change, cursor, and what each status allows', async () => {
    const control = backfillControl(driver);
    const older = await control.start('reindex-users', { cursor: 0 });
    await clock.advance(1_000);
    const newer = await control.start('recount-orders');
    await clock.advance(10_000);
    await commitPass(newer, 500, 500);
    await control.pause(older.runId);

    const served = await start();
    const listed = await getApi<BackfillsResponse>(served.base, '/backfills');
    expect(listed.status).toBe(200);
    expect(listed.body.limit).toBe(50);
    expect(listed.body.runs.map((run) => run.runId)).toEqual([newer.runId, older.runId]);
    expect(listed.body.runs[0]).toMatchObject({
      name: 'recount-orders',
      status: 'running',
      cursor: 500,
      passes: 1,
      rowsDone: 500,
      startedAt: T0 + 1_000,
      updatedAt: T0 + 11_000,
      rowsPerSecond: 50,
      stalled: false,
      actions: { pause: true, resume: false, cancel: true },
    });
    expect(listed.body.runs[1]).toMatchObject({
      status: 'paused',
      rowsDone: 0,
      rowsPerSecond: 0,
      actions: { pause: false, resume: true, cancel: true },
    });
  });

  it('filters by status and name; a scoped dashboard lists only its tenant’s runs whatever tenant= says', async () => {
    const control = backfillControl(driver);
    const acme = await control.start('reindex-users', { tenantId: 'acme' });
    const globex = await control.start('reindex-users', { tenantId: 'globex' });
    const other = await control.start('recount-orders');
    await control.cancel(other.runId);

    const served = await start();
    const ids = async (base: string, query: string) =>
      (await getApi<BackfillsResponse>(base, `/backfills${query}`)).body.runs.map(
        (run) => run.runId,
      );
    expect(await ids(served.base, '?status=cancelled')).toEqual([other.runId]);
    expect((await ids(served.base, '?name=reindex-users')).sort()).toEqual(
      [acme.runId, globex.runId].sort(),
    );
    expect(await ids(served.base, '?tenant=globex')).toEqual([globex.runId]);
    expect(await ids(served.base, '?limit=1')).toHaveLength(1);

    const scoped = await start({ tenant: () => 'acme' });
    expect(await ids(scoped.base, '?tenant=globex')).toEqual([acme.runId]);
  });

  it('refuses an unknown status and a limit out of range with 400 JOB_INVALID naming the parameter', async () => {
    const served = await start();
    for (const [query, field] of [
      ['?status=stuck', 'status'],
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?limit=ten', 'limit'],
    ] as const) {
      const answer = await getApi<Refusal>(served.base, `/backfills${query}`);
      expect([answer.status, answer.body.error.code], query).toEqual([400, 'JOB_INVALID']);
      expect(answer.body.error.message, query).toMatch(new RegExp(`^${field} `));
    }
  });
});

describe('GET /api/backfills/:runId', () => {
  it('answers the run; an unknown id is 404 BACKFILL_NOT_FOUND, another tenant’s run on a scoped dashboard too, and an id that is no UUID 400 JOB_INVALID', async () => {
    const run = await backfillControl(driver).start('reindex-users', { tenantId: 'globex' });
    const served = await start();
    const found = await getApi<BackfillResponse>(served.base, `/backfills/${run.runId}`);
    expect(found.body.run).toMatchObject({ runId: run.runId, tenantId: 'globex' });

    const missing = await getApi<Refusal>(served.base, `/backfills/${MISSING}`);
    expect([missing.status, missing.body.error.code]).toEqual([404, 'BACKFILL_NOT_FOUND']);
    expect(missing.body.error.fix).toContain('the Backfills page lists the runs');
    const scoped = await start({ tenant: () => 'acme' });
    const hidden = await getApi<Refusal>(scoped.base, `/backfills/${run.runId}`);
    expect([hidden.status, hidden.body.error.code]).toEqual([404, 'BACKFILL_NOT_FOUND']);
    expect(hidden.body.error.fix).toContain('scoped to tenant acme');
    const bad = await getApi<Refusal>(served.base, '/backfills/not-a-run');
    expect([bad.status, bad.body.error.code]).toEqual([400, 'JOB_INVALID']);
  });
});

describe('POST /api/backfills/:runId/pause|resume|cancel', () => {
  it('pause, resume and cancel move the run and answer it as it now stands; an ended run is 409 BACKFILL_NOT_ACTIVE', async () => {
    const run = await backfillControl(driver).start('reindex-users', { cursor: 7 });
    const served = await start();
    const session = await openSession(served.base);
    const act = (verb: string) =>
      postApi<BackfillResponse & Refusal>(served.base, `/backfills/${run.runId}/${verb}`, session);

    const paused = await act('pause');
    expect([paused.status, paused.body.run.status]).toEqual([200, 'paused']);
    expect((await act('pause')).body.run.status).toBe('paused');
    const resumed = await act('resume');
    expect(resumed.body.run).toMatchObject({ status: 'running', cursor: 7 });
    expect(resumed.body.run.jobId).not.toBe(run.jobId);
    expect(await driver.get(resumed.body.run.jobId)).toMatchObject({ state: 'ready' });
    const cancelled = await act('cancel');
    expect(cancelled.body.run).toMatchObject({
      status: 'cancelled',
      actions: { pause: false, resume: false, cancel: false },
    });
    expect((await driver.backfills.get(run.runId))?.status).toBe('cancelled');

    for (const verb of ['pause', 'resume']) {
      const ended = await act(verb);
      expect([ended.status, ended.body.error.code], verb).toEqual([409, 'BACKFILL_NOT_ACTIVE']);
      expect(ended.body.error.fix).toContain('Backfills page');
    }
  });

  it('a running run whose runner job is gone shows stalled and offers Resume, which hands it to a new runner job', async () => {
    const run = await backfillControl(driver).start('reindex-users');
    await driver.cancel(run.jobId);
    const served = await start();
    const [listed] = (await getApi<BackfillsResponse>(served.base, '/backfills')).body.runs;
    expect(listed).toMatchObject({
      status: 'running',
      stalled: true,
      actions: { pause: true, resume: true, cancel: true },
    });
    const session = await openSession(served.base);
    const resumed = await postApi<BackfillResponse>(
      served.base,
      `/backfills/${run.runId}/resume`,
      session,
    );
    expect(resumed.body.run).toMatchObject({ status: 'running', stalled: false });
    expect(resumed.body.run.jobId).not.toBe(run.jobId);
  });

  it('a scoped dashboard acts only on its tenant’s runs: another tenant’s is 404 and stays as it was', async () => {
    const run = await backfillControl(driver).start('reindex-users', { tenantId: 'globex' });
    const served = await start({ tenant: () => 'acme' });
    const session = await openSession(served.base);
    const answer = await postApi<Refusal>(served.base, `/backfills/${run.runId}/cancel`, session);
    expect([answer.status, answer.body.error.code]).toEqual([404, 'BACKFILL_NOT_FOUND']);
    expect((await driver.backfills.get(run.runId))?.status).toBe('running');
  });

  it('read-only mode refuses each action with 403 READ_ONLY and offers none; CSRF guards them; a body that is not an object is 400', async () => {
    const run = await backfillControl(driver).start('reindex-users');
    const readOnly = await start({ readOnly: true });
    const session = await openSession(readOnly.base);
    for (const verb of ['pause', 'resume', 'cancel']) {
      const answer = await postApi<Refusal>(
        readOnly.base,
        `/backfills/${run.runId}/${verb}`,
        session,
      );
      expect([answer.status, answer.body.error.code], verb).toEqual([403, 'READ_ONLY']);
    }
    const [shown] = (await getApi<BackfillsResponse>(readOnly.base, '/backfills')).body.runs;
    expect(shown?.actions).toEqual({ pause: false, resume: false, cancel: false });

    const served = await start();
    const own = await openSession(served.base);
    const forged = await postApi<Refusal>(served.base, `/backfills/${run.runId}/pause`, {
      cookie: own.cookie,
      csrf: '',
    });
    expect([forged.status, forged.body.error.code]).toEqual([403, 'CSRF_REFUSED']);
    const list = await postApi<Refusal>(served.base, `/backfills/${run.runId}/pause`, own, []);
    expect([list.status, list.body.error.code]).toEqual([400, 'JOB_INVALID']);
    expect((await driver.backfills.get(run.runId))?.status).toBe('running');
  });

  it('BACKFILL_RUNNING is answered 409, as the other refusals of a run’s state', () => {
    const running = new BerthError({
      code: 'BACKFILL_RUNNING',
      detail: 'backfill reindex-users already has 1 run(s) going',
      meta: { name: 'reindex-users', active: [MISSING] },
    });
    const { status, problem } = problemOf(running, { tenantId: undefined });
    expect([status, problem.code]).toEqual([409, 'BACKFILL_RUNNING']);
    expect(problem.fix).toContain('Backfills page');
  });
});
