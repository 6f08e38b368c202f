import type { Driver } from '@berth/core';
import { createMemoryDriver } from '@berth/driver-memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobResponse, JobsResponse, JobView } from '../src/index.js';
import { mustGet, type Seeded, seedEveryState } from './support/seed.js';
import {
  getApi,
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

beforeAll(async () => {
  driver = createMemoryDriver();
  seeded = await seedEveryState(driver);
  served = await startDashboard({ driver, basePath: '/admin/queue' });
  session = await openSession(served.base);
});
afterAll(async () => {
  await served.close();
  await driver.close();
});

describe('GET /api/jobs', () => {
  it('answers the newest jobs first as summaries, without payloads', async () => {
    const { status, body } = await getApi<JobsResponse>(served.base, '/jobs?limit=5');
    const listed = await driver.list({ limit: 5 });
    expect(status).toBe(200);
    expect(body.jobs.map((job) => job.id)).toEqual(listed.jobs.map((job) => job.id));
    expect(body.jobs[0]).not.toHaveProperty('payload');
    expect(body.next).toBeTypeOf('string');
    expect(body).not.toHaveProperty('prev');
  });

  it('filters by state, queue, name and tenant', async () => {
    const dead = await getApi<JobsResponse>(served.base, '/jobs?state=dead&queue=billing');
    expect(dead.body.jobs.map((job) => job.id).sort()).toEqual(
      [...seeded.declined, ...seeded.timedOut].sort(),
    );
    const named = await getApi<JobsResponse>(served.base, '/jobs?name=xss.probe');
    expect(named.body.jobs.map((job) => job.id)).toEqual([seeded.hostile]);
    const tenant = await getApi<JobsResponse>(served.base, '/jobs?tenant=acme');
    expect(tenant.body.jobs.map((job) => job.id).sort()).toEqual([...seeded.tenantJobs].sort());
    const failed = await getApi<JobsResponse>(served.base, '/jobs?state=failed');
    expect(failed.body.jobs[0]).toMatchObject({
      errorCode: 'BOUNCED',
      errorMessage: 'mailbox full',
    });
  });

  it('walks pages with the driver’s keyset cursors, forward and back, never an offset', async () => {
    const first = await getApi<JobsResponse>(served.base, '/jobs?state=completed&limit=12');
    const after = encodeURIComponent(first.body.next ?? '');
    const second = await getApi<JobsResponse>(
      served.base,
      `/jobs?state=completed&limit=12&after=${after}`,
    );
    const third = await getApi<JobsResponse>(
      served.base,
      `/jobs?state=completed&limit=12&after=${encodeURIComponent(second.body.next ?? '')}`,
    );
    const walked = [first, second, third].flatMap((page) => page.body.jobs.map((job) => job.id));
    expect(walked).toHaveLength(30);
    expect(new Set(walked)).toEqual(new Set(seeded.completed));
    expect(third.body).not.toHaveProperty('next');
    const back = await getApi<JobsResponse>(
      served.base,
      `/jobs?state=completed&limit=12&before=${encodeURIComponent(second.body.prev ?? '')}`,
    );
    expect(back.body.jobs.map((job) => job.id)).toEqual(first.body.jobs.map((job) => job.id));
  });

  it('refuses a bad state, limit or cursor with 400 and the driver’s code', async () => {
    const state = await getApi<{ error: { code: string } }>(served.base, '/jobs?state=finished');
    expect([state.status, state.body.error.code]).toEqual([400, 'JOB_INVALID']);
    const limit = await getApi<{ error: { code: string } }>(served.base, '/jobs?limit=101');
    expect([limit.status, limit.body.error.code]).toEqual([400, 'JOB_INVALID']);
    const cursor = await getApi<{ error: { code: string } }>(served.base, '/jobs?after=nonsense');
    expect([cursor.status, cursor.body.error.code]).toEqual([400, 'JOB_PAGE_INVALID']);
  });
});

describe('GET /api/jobs/:id', () => {
  it('answers the record, its steps in write order and the actions its state allows', async () => {
    const { status, body } = await getApi<JobResponse>(served.base, `/jobs/${seeded.withSteps}`);
    expect(status).toBe(200);
    expect(body.job).toMatchObject({
      id: seeded.withSteps,
      state: 'dead',
      payload: { invoice: 'inv_42' },
    });
    expect(body.job.lastError?.stack).toContain('at charge (billing.ts:42:11)');
    expect(body.steps.map((step) => [step.name, step.status])).toEqual([
      ['fetch-customer', 'completed'],
      ['charge-card', 'failed'],
    ]);
    expect(body.steps[0]?.output).toEqual({ customer: 7 });
    expect(body.attempts).toEqual(await driver.attempts.list(body.job.id));
    expect(body.attempts.records.map((record) => record.outcome)).toEqual(['failed']);
    expect(body.actions).toEqual({
      retry: true,
      retryFromStep: true,
      cancel: false,
      promote: false,
      delete: true,
    });
    const running = await getApi<JobResponse>(served.base, `/jobs/${seeded.running}`);
    expect(running.body.job.claimedBy).toBe('seed-worker');
    expect(running.body.job.visibleAt).toBeTypeOf('number');
    expect(running.body.actions).toEqual({
      retry: false,
      retryFromStep: false,
      cancel: true,
      promote: false,
      delete: false,
    });
    const delayed = await getApi<JobResponse>(served.base, `/jobs/${seeded.delayed}`);
    expect(delayed.body.actions.promote).toBe(true);
  });

  it("a flow's child names its parent job; a job without one answers no parentId", async () => {
    const parent = await driver.enqueue({ name: 'book' });
    const child = await driver.enqueue({ name: 'render', parentId: parent.id });
    const shown = await getApi<JobResponse>(served.base, `/jobs/${child.id}`);
    expect(shown.body.job.parentId).toBe(parent.id);
    const orphan = await getApi<JobResponse>(served.base, `/jobs/${parent.id}`);
    expect(orphan.body.job).not.toHaveProperty('parentId');
  });

  it('answers 404 JOB_NOT_FOUND for an unknown id and 400 JOB_INVALID for a malformed one', async () => {
    const missing = await getApi<{ error: { code: string } }>(
      served.base,
      '/jobs/00000000-0000-4000-8000-000000000000',
    );
    expect([missing.status, missing.body.error.code]).toEqual([404, 'JOB_NOT_FOUND']);
    const bad = await getApi<{ error: { code: string } }>(served.base, '/jobs/not-an-id');
    expect([bad.status, bad.body.error.code]).toEqual([400, 'JOB_INVALID']);
  });
});

describe('POST /api/jobs/:id/(retry|cancel|promote)', () => {
  it('retry requeues a dead job; retry from a step drops that step and the ones after it', async () => {
    const [declined] = seeded.declined.slice(1);
    const retried = await postApi<{ job: JobView }>(
      served.base,
      `/jobs/${declined}/retry`,
      session,
    );
    expect([retried.status, retried.body.job.state]).toEqual([200, 'ready']);
    expect((await mustGet(driver, declined ?? '')).attempts).toBe(0);

    const fromStep = await postApi<{ job: JobView }>(
      served.base,
      `/jobs/${seeded.withSteps}/retry`,
      session,
      { fromStep: 'charge-card' },
    );
    expect(fromStep.body.job.state).toBe('ready');
    const job = await mustGet(driver, seeded.withSteps);
    expect((await driver.steps.list(job.runId)).map((step) => step.name)).toEqual([
      'fetch-customer',
    ]);
  });

  it('cancel and promote change the stored state', async () => {
    const promoted = await postApi<{ job: JobView }>(
      served.base,
      `/jobs/${seeded.delayed}/promote`,
      session,
    );
    expect(promoted.body.job.state).toBe('ready');
    expect((await mustGet(driver, seeded.delayed)).state).toBe('ready');
    const cancelled = await postApi<{ job: JobView }>(
      served.base,
      `/jobs/${seeded.delayed}/cancel`,
      session,
    );
    expect(cancelled.body.job.state).toBe('cancelled');
    expect((await mustGet(driver, seeded.delayed)).state).toBe('cancelled');
  });

  it('answers the driver’s refusals as 409 with their code, and changes nothing', async () => {
    const retry = await postApi<{ error: { code: string } }>(
      served.base,
      `/jobs/${seeded.ready}/retry`,
      session,
    );
    expect([retry.status, retry.body.error.code]).toEqual([409, 'JOB_NOT_REQUEUEABLE']);
    const cancel = await postApi<{ error: { code: string } }>(
      served.base,
      `/jobs/${seeded.completed[0]}/cancel`,
      session,
    );
    expect([cancel.status, cancel.body.error.code]).toEqual([409, 'JOB_NOT_CANCELLABLE']);
    const promote = await postApi<{ error: { code: string } }>(
      served.base,
      `/jobs/${seeded.ready}/promote`,
      session,
    );
    expect([promote.status, promote.body.error.code]).toEqual([409, 'JOB_NOT_PROMOTABLE']);
    expect((await mustGet(driver, seeded.ready)).state).toBe('ready');
    const step = await postApi<{ error: { code: string } }>(
      served.base,
      `/jobs/${seeded.failed}/retry`,
      session,
      { fromStep: 'no-such-step' },
    );
    expect([step.status, step.body.error.code]).toEqual([409, 'STEP_INVALID']);
    expect((await mustGet(driver, seeded.failed)).state).toBe('failed');
  });

  it('refuses a body that is not JSON with 400, and an action by GET with 405', async () => {
    const response = await fetch(`${served.base}/api/jobs/${seeded.failed}/retry`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: session.cookie,
        'x-berth-csrf': session.csrf,
      },
      body: '{not json',
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
      'BODY_INVALID',
    );
    const get = await fetch(`${served.base}/api/jobs/${seeded.failed}/retry`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });
});
