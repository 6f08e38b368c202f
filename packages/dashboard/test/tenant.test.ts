import { createManualClock, type Driver } from '@berth/core';
import { createMemoryDriver } from '@berth/driver-memory';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TENANT_SCAN } from '../src/api/tenant-overview.js';
import type {
  BulkActionResponse,
  DeadLettersResponse,
  EventsResponse,
  JobsResponse,
  OverviewResponse,
  SchedulesResponse,
} from '../src/index.js';
import { mustGet } from './support/seed.js';
import {
  getApi,
  openSession,
  postApi,
  startDashboard,
  type TestDashboard,
} from './support/server.js';

const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);
const W = 'w';
let driver: Driver;
let served: TestDashboard;
const ids: Record<string, string> = {};

/** A dead job of `tenantId`. */
async function dead(tenantId: string | undefined, queue = 'billing') {
  const { id } = await driver.enqueue({
    name: 'charge',
    queue,
    maxAttempts: 1,
    ...(tenantId === undefined ? {} : { tenantId }),
  });
  const [job] = await driver.claim({ queues: [queue], workerId: W, visibilityTimeoutMs: 1_000 });
  await driver.nack(
    { jobId: id, workerId: W, claim: job?.claim ?? 0 },
    { error: { code: 'DECLINED', message: 'card declined' }, final: true },
  );
  return id;
}

beforeEach(async () => {
  driver = createMemoryDriver({ clock: createManualClock(T0) });
  ids.acmeDead = await dead('acme');
  ids.globexDead = await dead('globex');
  ids.anonDead = await dead(undefined);
  ids.acmeReady = (await driver.enqueue({ name: 'mail', queue: 'mail', tenantId: 'acme' })).id;
  ids.globexReady = (await driver.enqueue({ name: 'mail', queue: 'mail', tenantId: 'globex' })).id;
  await driver.events.publish('secret.event', { of: 'globex' });
  served = await startDashboard({
    driver,
    tenant: (request) => String(request.headers['x-tenant'] ?? ''),
    schedules: [
      { name: 'acme-nightly', cron: '0 3 * * *', job: 'report', tenantId: 'acme' },
      { name: 'globex-nightly', cron: '0 3 * * *', job: 'report', tenantId: 'globex' },
    ],
  });
});
afterEach(async () => {
  await served.close();
  await driver.close();
});

const asAcme = { 'x-tenant': 'acme' };

describe('tenant', () => {
  it('scopes the jobs table, ignoring a tenant filter that names another', async () => {
    const own = await getApi<JobsResponse>(served.base, '/jobs', asAcme);
    expect(own.body.jobs.map((job) => job.id).sort()).toEqual([ids.acmeDead, ids.acmeReady].sort());
    const other = await getApi<JobsResponse>(served.base, '/jobs?tenant=globex', asAcme);
    expect(other.body.jobs.map((job) => job.id).sort()).toEqual(
      [ids.acmeDead, ids.acmeReady].sort(),
    );
  });

  it('answers another tenant’s job as not found, to a read and to every action', async () => {
    const read = await getApi<{ error: { code: string } }>(
      served.base,
      `/jobs/${ids.globexDead}`,
      asAcme,
    );
    expect([read.status, read.body.error.code]).toEqual([404, 'JOB_NOT_FOUND']);
    const session = await openSession(served.base, asAcme);
    for (const [id, action] of [
      [ids.globexDead, 'retry'],
      [ids.globexReady, 'cancel'],
      [ids.anonDead, 'retry'],
      [ids.globexDead, 'delete'],
      [ids.anonDead, 'delete'],
    ] as const) {
      const answer = await postApi<{ error: { code: string } }>(
        served.base,
        `/jobs/${id}/${action}`,
        session,
        {},
        asAcme,
      );
      expect([answer.status, answer.body.error.code]).toEqual([404, 'JOB_NOT_FOUND']);
    }
    expect((await mustGet(driver, ids.globexDead ?? '')).state).toBe('dead');
    expect((await mustGet(driver, ids.globexReady ?? '')).state).toBe('ready');
    const own = await postApi(served.base, `/jobs/${ids.acmeDead}/retry`, session, {}, asAcme);
    expect(own.status).toBe(200);
  });

  it('a bulk action reaches only the tenant’s own jobs: another’s id is refused JOB_NOT_FOUND and kept', async () => {
    const session = await openSession(served.base, asAcme);
    const answer = await postApi<BulkActionResponse>(
      served.base,
      '/jobs/bulk',
      session,
      { action: 'delete', ids: [ids.acmeDead, ids.globexDead, ids.anonDead] },
      asAcme,
    );
    expect(answer.body.results.map((result) => [result.outcome, result.code])).toEqual([
      ['deleted', undefined],
      ['refused', 'JOB_NOT_FOUND'],
      ['refused', 'JOB_NOT_FOUND'],
    ]);
    expect(await driver.get(ids.acmeDead ?? '')).toBeUndefined();
    expect((await mustGet(driver, ids.globexDead ?? '')).state).toBe('dead');
    expect((await mustGet(driver, ids.anonDead ?? '')).state).toBe('dead');
  });

  it('groups only the tenant’s dead letters, and a group action skips ids of others', async () => {
    const { body } = await getApi<DeadLettersResponse>(served.base, '/dead-letters', asAcme);
    expect(body.groups.map((group) => group.ids)).toEqual([[ids.acmeDead]]);
    const session = await openSession(served.base, asAcme);
    const key = body.groups[0]?.key;
    const purge = await postApi<{ results: unknown[] }>(
      served.base,
      '/dead-letters/purge',
      session,
      { key, ids: [ids.acmeDead, ids.globexDead, ids.anonDead] },
      asAcme,
    );
    expect(purge.body.results).toEqual([
      { id: ids.acmeDead, outcome: 'purged' },
      { id: ids.globexDead, outcome: 'skipped', message: 'no such job' },
      { id: ids.anonDead, outcome: 'skipped', message: 'no such job' },
    ]);
    expect((await mustGet(driver, ids.globexDead ?? '')).state).toBe('dead');
  });

  it('counts the overview from the tenant’s own rows, and shows no events and only its schedules', async () => {
    const overview = await getApi<OverviewResponse>(served.base, '/overview', asAcme);
    expect(overview.body.throughput.source).toBe('scanned');
    expect(
      overview.body.queues.map((queue) => [queue.queue, queue.counts.dead, queue.counts.ready]),
    ).toEqual([
      ['billing', 1, 0],
      ['mail', 0, 1],
    ]);
    expect(overview.body.throughput.failed.at(-1)).toBe(1);
    const events = await getApi<EventsResponse>(served.base, '/events', asAcme);
    expect(events.body.events).toEqual([]);
    const schedules = await getApi<SchedulesResponse>(served.base, '/schedules', asAcme);
    expect(schedules.body.schedules.map((schedule) => schedule.name)).toEqual(['acme-nightly']);
  });

  it('counts only the tenant’s own running jobs in the overview’s concurrency keys', async () => {
    for (const [tenantId, concurrencyKey] of [
      ['acme', 'acct-1'],
      ['acme', 'acct-1'],
      ['globex', 'acct-9'],
      ['globex', 'acct-1'],
    ] as const) {
      await driver.enqueue({ name: 'account.sync', queue: 'sync', tenantId, concurrencyKey });
    }
    await driver.enqueue({ name: 'account.sync', queue: 'sync', concurrencyKey: 'acct-1' });
    const claimed = await driver.claim({
      queues: ['sync'],
      workerId: W,
      visibilityTimeoutMs: 60_000,
      limit: 10,
    });
    expect(claimed).toHaveLength(5);
    const { body } = await getApi<OverviewResponse>(served.base, '/overview', asAcme);
    expect(body.concurrency).toEqual({
      keys: [{ name: 'account.sync', key: 'acct-1', running: 2 }],
      keyCount: 1,
      scanned: 2,
      truncated: false,
    });
  });

  it('marks a state whose rows reached the scan bound as a lower bound', async () => {
    await driver.enqueueMany(
      Array.from({ length: TENANT_SCAN + 1 }, () => ({
        name: 'bulk',
        queue: 'bulk',
        tenantId: 'acme',
      })),
    );
    const { body } = await getApi<OverviewResponse>(served.base, '/overview', asAcme);
    const bulk = body.queues.find((queue) => queue.queue === 'bulk');
    // The newest TENANT_SCAN ready rows are all bulk ones; the older mail job is past the bound.
    expect(bulk?.counts.ready).toBe(TENANT_SCAN);
    expect(bulk?.capped).toContain('ready');
  });

  it('refuses a request the tenant option names no tenant for, and tells the page its tenant', async () => {
    const none = await getApi<{ error: { code: string } }>(served.base, '/jobs');
    expect([none.status, none.body.error.code]).toEqual([403, 'NO_TENANT']);
    const page = await openSession(served.base, asAcme);
    expect(page.html).toContain('"tenant":"acme"');
  });
});
