import type { Driver, QueuePause } from '@berth/core';
import { createMemoryDriver } from '@berth/driver-memory';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DashboardOptions, OverviewResponse } from '../src/index.js';
import {
  getApi,
  openSession,
  postApi,
  startDashboard,
  type TestDashboard,
} from './support/server.js';

let driver: Driver;
const opened: TestDashboard[] = [];

async function start(options: Omit<DashboardOptions, 'driver'> = {}) {
  const served = await startDashboard({ driver, ...options });
  opened.push(served);
  return served;
}

const claimOf = (queue: string) =>
  driver.claim({ queues: [queue], workerId: 'dash-test', visibilityTimeoutMs: 60_000 });

beforeEach(async () => {
  driver = createMemoryDriver();
  await driver.enqueue({ name: 'email.send', queue: 'mail' });
});
afterEach(async () => {
  for (const served of opened.splice(0)) await served.close();
  await driver.close();
});

describe('POST /api/queues/pause and /api/queues/resume', () => {
  it('pause stops claims of the queue and the overview shows when it began; resume lifts it', async () => {
    const served = await start();
    const session = await openSession(served.base);
    const paused = await postApi<{ pause: QueuePause }>(served.base, '/queues/pause', session, {
      queue: 'mail',
    });
    expect(paused.status).toBe(200);
    expect(paused.body.pause).toMatchObject({ queue: 'mail', paused: true });
    expect(await claimOf('mail')).toEqual([]);
    const overview = await getApi<OverviewResponse>(served.base, '/overview');
    expect(overview.body.queues.find((queue) => queue.queue === 'mail')?.pausedAt).toBe(
      paused.body.pause.pausedAt,
    );
    const resumed = await postApi<{ pause: QueuePause }>(served.base, '/queues/resume', session, {
      queue: 'mail',
    });
    expect(resumed.body.pause).toEqual({ queue: 'mail', paused: false });
    const after = await getApi<OverviewResponse>(served.base, '/overview');
    expect(after.body.queues.find((queue) => queue.queue === 'mail')).not.toHaveProperty(
      'pausedAt',
    );
    expect(await claimOf('mail')).toHaveLength(1);
  });

  it('a paused queue that holds no job still shows in the overview, with zero counts, so it can be resumed', async () => {
    const served = await start();
    const session = await openSession(served.base);
    await postApi(served.base, '/queues/pause', session, { queue: 'empty/queue' });
    const overview = await getApi<OverviewResponse>(served.base, '/overview');
    const empty = overview.body.queues.find((queue) => queue.queue === 'empty/queue');
    expect(empty?.pausedAt).toBeTypeOf('number');
    expect(empty?.counts.ready).toBe(0);
    expect(overview.body.queues.map((queue) => queue.queue)).toEqual(['empty/queue', 'mail']);
  });

  it('read-only mode refuses both with 403 READ_ONLY, and CSRF guards them as every action', async () => {
    const readOnly = await start({ readOnly: true });
    const session = await openSession(readOnly.base);
    for (const action of ['pause', 'resume']) {
      const answer = await postApi<{ error: { code: string } }>(
        readOnly.base,
        `/queues/${action}`,
        session,
        { queue: 'mail' },
      );
      expect([answer.status, answer.body.error.code]).toEqual([403, 'READ_ONLY']);
    }
    const served = await start();
    const own = await openSession(served.base);
    const forged = await postApi<{ error: { code: string } }>(
      served.base,
      '/queues/pause',
      { cookie: own.cookie, csrf: '' },
      { queue: 'mail' },
    );
    expect([forged.status, forged.body.error.code]).toEqual([403, 'CSRF_REFUSED']);
    expect(await driver.pauses.list()).toEqual([]);
  });

  it('refuses a missing or empty queue with 400 JOB_INVALID, and pauses nothing', async () => {
    const served = await start();
    const session = await openSession(served.base);
    for (const body of [{}, { queue: '' }, { queue: 7 }]) {
      const answer = await postApi<{ error: { code: string } }>(
        served.base,
        '/queues/pause',
        session,
        body,
      );
      expect([answer.status, answer.body.error.code]).toEqual([400, 'JOB_INVALID']);
    }
    expect(await driver.pauses.list()).toEqual([]);
  });

  it('a tenant-scoped dashboard refuses a pause with 400 JOB_INVALID (a pause holds every tenant) and shows no pause', async () => {
    await driver.pauses.pause('mail');
    const served = await start({ tenant: () => 'acme' });
    const session = await openSession(served.base);
    const answer = await postApi<{ error: { code: string; message: string } }>(
      served.base,
      '/queues/resume',
      session,
      { queue: 'mail' },
    );
    expect([answer.status, answer.body.error.code]).toEqual([400, 'JOB_INVALID']);
    expect(answer.body.error.message).toContain('tenantId cannot scope a pause');
    expect((await driver.pauses.list()).map((pause) => pause.queue)).toEqual(['mail']);
    const overview = await getApi<OverviewResponse>(served.base, '/overview');
    for (const queue of overview.body.queues) expect(queue).not.toHaveProperty('pausedAt');
  });
});
