import type { Driver } from '@berth/core';
import { createMemoryDriver } from '@berth/driver-memory';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BulkActionResponse, JobView } from '../src/index.js';
import { mustGet, type Seeded, seedEveryState } from './support/seed.js';
import {
  openSession,
  postApi,
  type Session,
  startDashboard,
  type TestDashboard,
} from './support/server.js';

let driver: Driver;
let seeded: Seeded;
let served: TestDashboard;
let session: Session;

beforeEach(async () => {
  driver = createMemoryDriver();
  seeded = await seedEveryState(driver);
  served = await startDashboard({ driver });
  session = await openSession(served.base);
});
afterEach(async () => {
  await served.close();
  await driver.close();
});

type Refusal = { error: { code: string; message: string; fix: string } };

describe('POST /api/jobs/:id/delete', () => {
  it('deletes the job with its steps and answers it as it was', async () => {
    const before = await mustGet(driver, seeded.withSteps);
    const answer = await postApi<{ job: JobView }>(
      served.base,
      `/jobs/${seeded.withSteps}/delete`,
      session,
    );
    expect(answer.status).toBe(200);
    expect(answer.body.job).toMatchObject({ id: seeded.withSteps, state: 'dead' });
    expect(await driver.get(seeded.withSteps)).toBeUndefined();
    expect(await driver.steps.list(before.runId)).toEqual([]);
    const again = await postApi<Refusal>(served.base, `/jobs/${seeded.withSteps}/delete`, session);
    expect([again.status, again.body.error.code]).toEqual([404, 'JOB_NOT_FOUND']);
  });

  it('refuses a running job with 409 JOB_NOT_DELETABLE, a fix naming Cancel, and keeps it', async () => {
    const answer = await postApi<Refusal>(served.base, `/jobs/${seeded.running}/delete`, session);
    expect([answer.status, answer.body.error.code]).toEqual([409, 'JOB_NOT_DELETABLE']);
    expect(answer.body.error.fix).toContain('cancel it first');
    expect((await mustGet(driver, seeded.running)).state).toBe('running');
  });
});

describe('POST /api/jobs/bulk', () => {
  it('deletes each ticked job and reports every outcome, a running one refused with its state', async () => {
    const ids = [seeded.ready, seeded.failed, seeded.running, seeded.cancelled];
    const answer = await postApi<BulkActionResponse>(served.base, '/jobs/bulk', session, {
      action: 'delete',
      ids,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      action: 'delete',
      results: [
        { id: seeded.ready, outcome: 'deleted', state: 'ready' },
        { id: seeded.failed, outcome: 'deleted', state: 'failed' },
        {
          id: seeded.running,
          outcome: 'refused',
          code: 'JOB_NOT_DELETABLE',
          message: expect.stringContaining('running'),
          reason: 'running',
        },
        { id: seeded.cancelled, outcome: 'deleted', state: 'cancelled' },
      ],
    });
    for (const id of [seeded.ready, seeded.failed, seeded.cancelled]) {
      expect(await driver.get(id)).toBeUndefined();
    }
    expect((await mustGet(driver, seeded.running)).state).toBe('running');
  });

  it('retries and cancels each ticked job, refusing the ones their state does not allow', async () => {
    const retried = await postApi<BulkActionResponse>(served.base, '/jobs/bulk', session, {
      action: 'retry',
      ids: [seeded.failed, seeded.ready],
    });
    expect(retried.body.results.map((result) => [result.outcome, result.reason])).toEqual([
      ['requeued', undefined],
      ['refused', 'ready'],
    ]);
    expect((await mustGet(driver, seeded.failed)).state).toBe('ready');
    const cancelled = await postApi<BulkActionResponse>(served.base, '/jobs/bulk', session, {
      action: 'cancel',
      ids: [seeded.delayed, seeded.completed[0] ?? '', seeded.delayed],
    });
    expect(cancelled.body.results.map((result) => [result.outcome, result.code])).toEqual([
      ['cancelled', undefined],
      ['refused', 'JOB_NOT_CANCELLABLE'],
    ]);
    expect((await mustGet(driver, seeded.delayed)).state).toBe('cancelled');
  });

  it('refuses an unknown action or an empty, oversized or non-string id list with 400 JOB_INVALID', async () => {
    const tooMany = Array.from({ length: 101 }, () => seeded.ready);
    for (const [body, field] of [
      [{ action: 'purge', ids: [seeded.ready] }, 'action'],
      [{ action: 'delete', ids: [] }, 'ids'],
      [{ action: 'delete', ids: tooMany }, 'ids'],
      [{ action: 'delete', ids: [7] }, 'ids'],
      [{ action: 'delete' }, 'ids'],
    ] as const) {
      const answer = await postApi<Refusal>(served.base, '/jobs/bulk', session, body);
      expect([answer.status, answer.body.error.code], field).toEqual([400, 'JOB_INVALID']);
      expect(answer.body.error.message).toContain(field);
    }
    expect((await mustGet(driver, seeded.ready)).state).toBe('ready');
  });

  it('refuses without the CSRF token and changes nothing', async () => {
    const answer = await postApi<Refusal>(
      served.base,
      '/jobs/bulk',
      { cookie: session.cookie, csrf: '' },
      { action: 'delete', ids: [seeded.ready] },
    );
    expect([answer.status, answer.body.error.code]).toEqual([403, 'CSRF_REFUSED']);
    expect((await mustGet(driver, seeded.ready)).state).toBe('ready');
  });
});
