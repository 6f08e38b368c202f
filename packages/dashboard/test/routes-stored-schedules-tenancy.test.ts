import { createClient } from '@berth/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoredScheduleResponse } from '../src/index.js';
import { type OpenedDriver, openPg } from './support/drivers.js';
import { openSession, postApi, startDashboard } from './support/server.js';
import {
  driver,
  HOUR,
  labels,
  opened,
  type Refusal,
  start,
  stored,
  storedScheduleHooks,
  upsert,
} from './support/stored-schedules.js';

storedScheduleHooks();

describe('stored schedules on a tenant-scoped dashboard', () => {
  const asAcme = { 'x-tenant': 'acme' };

  beforeEach(async () => {
    await upsert({ name: 'nightly', cron: '0 3 * * *', job: 'digest', tenantId: 'acme' });
    await upsert({ name: 'nightly', cron: '0 3 * * *', job: 'digest', tenantId: 'globex' });
    await upsert({ name: 'nightly', cron: '0 3 * * *', job: 'digest' });
    await upsert({ name: 'globex-only', cron: '0 4 * * *', job: 'digest', tenantId: 'globex' });
  });

  const recordOf = (name: string, tenantId?: string) =>
    createClient({ driver }).schedules.get(name, tenantId === undefined ? {} : { tenantId });

  it('lists only its tenant’s, ignoring a tenant filter that names another', async () => {
    const served = await start({ tenant: (request) => String(request.headers['x-tenant'] ?? '') });
    expect(labels((await stored(served.base, '', asAcme)).schedules)).toEqual(['acme/nightly']);
    expect(labels((await stored(served.base, '?tenant=globex', asAcme)).schedules)).toEqual([
      'acme/nightly',
    ]);
    // Unscoped, every tenant's, or the one `tenant` names.
    const all = await start();
    expect(labels((await stored(all.base)).schedules)).toEqual([
      'globex/globex-only',
      '-/nightly',
      'acme/nightly',
      'globex/nightly',
    ]);
    expect(labels((await stored(all.base, '?tenant=globex')).schedules)).toEqual([
      'globex/globex-only',
      'globex/nightly',
    ]);
  });

  it('acts only on its tenant’s: another tenant’s is not found, and a body naming another is refused', async () => {
    const served = await start({ tenant: (request) => String(request.headers['x-tenant'] ?? '') });
    const session = await openSession(served.base, asAcme);
    const post = (action: string, body: unknown) =>
      postApi<StoredScheduleResponse & Refusal>(
        served.base,
        `/schedules/${action}`,
        session,
        body,
        asAcme,
      );
    const own = await post('pause', { name: 'nightly' });
    expect(own.status).toBe(200);
    expect(own.body.schedule).toMatchObject({ name: 'nightly', tenantId: 'acme', paused: true });
    // Repeating its own tenant is fine.
    const repeated = await post('resume', { name: 'nightly', tenantId: 'acme' });
    expect(repeated.body.schedule).toMatchObject({ tenantId: 'acme', paused: false });
    // Another tenant's schedule answers as missing, to every action.
    for (const action of ['pause', 'resume', 'remove']) {
      const other = await post(action, { name: 'globex-only' });
      expect([other.status, other.body.error.code], action).toEqual([404, 'SCHEDULE_NOT_FOUND']);
      expect(other.body.error.fix).toContain('scoped to tenant acme');
      const named = await post(action, { name: 'nightly', tenantId: 'globex' });
      expect([named.status, named.body.error.code], action).toEqual([400, 'JOB_INVALID']);
      expect(named.body.error.message).toContain('tenantId');
    }
    const removed = await post('remove', { name: 'nightly' });
    expect(removed.body.schedule).toMatchObject({ name: 'nightly', tenantId: 'acme' });
    expect(await recordOf('nightly', 'acme')).toBeUndefined();
    // Nobody else's changed.
    expect(await recordOf('nightly', 'globex')).toMatchObject({ paused: false, revision: 1 });
    expect(await recordOf('nightly')).toMatchObject({ paused: false, revision: 1 });
    expect(await recordOf('globex-only', 'globex')).toMatchObject({ revision: 1 });
  });

  it('unscoped, a body’s tenantId names the tenant; without one, the schedule of no tenant', async () => {
    const served = await start();
    const session = await openSession(served.base);
    const paused = await postApi<StoredScheduleResponse>(served.base, '/schedules/pause', session, {
      name: 'nightly',
      tenantId: 'globex',
    });
    expect(paused.body.schedule).toMatchObject({ tenantId: 'globex', paused: true });
    const none = await postApi<StoredScheduleResponse>(served.base, '/schedules/pause', session, {
      name: 'nightly',
    });
    expect(none.body.schedule).toMatchObject({ paused: true });
    expect(none.body.schedule).not.toHaveProperty('tenantId');
    expect(await recordOf('nightly', 'acme')).toMatchObject({ paused: false, revision: 1 });
  });
});

describe('stored schedules over pg', () => {
  let pg: OpenedDriver;
  afterEach(async () => {
    for (const served of opened.splice(0)) await served.close();
    await pg?.dispose();
  });

  it('lists, pauses, resumes and removes through the dashboard, tenant-scoped as on memory', async () => {
    pg = await openPg();
    const schedules = createClient({ driver: pg.driver }).schedules;
    await schedules.upsert({ name: 'hourly', cron: '0 * * * *', job: 'tick', tenantId: 'acme' });
    await schedules.upsert({ name: 'hourly', cron: '0 * * * *', job: 'tick', tenantId: 'globex' });
    const served = await startDashboard({
      driver: pg.driver,
      tenant: (request) => String(request.headers['x-tenant'] ?? ''),
    });
    opened.push(served);
    const asAcme = { 'x-tenant': 'acme' };
    const page = await stored(served.base, '', asAcme);
    expect(labels(page.schedules)).toEqual(['acme/hourly']);
    const [hourly] = page.schedules;
    expect(hourly?.next).toHaveLength(3);
    expect(hourly?.next[1]).toBe((hourly?.next[0] ?? 0) + HOUR);
    const session = await openSession(served.base, asAcme);
    for (const [action, state] of [
      ['pause', true],
      ['resume', false],
    ] as const) {
      const answer = await postApi<StoredScheduleResponse>(
        served.base,
        `/schedules/${action}`,
        session,
        { name: 'hourly' },
        asAcme,
      );
      expect([answer.status, answer.body.schedule.paused], action).toEqual([200, state]);
    }
    const removed = await postApi(
      served.base,
      '/schedules/remove',
      session,
      { name: 'hourly' },
      asAcme,
    );
    expect(removed.status).toBe(200);
    const missing = await postApi<Refusal>(
      served.base,
      '/schedules/remove',
      session,
      { name: 'hourly' },
      asAcme,
    );
    expect([missing.status, missing.body.error.code]).toEqual([404, 'SCHEDULE_NOT_FOUND']);
    expect(await schedules.get('hourly', { tenantId: 'acme' })).toBeUndefined();
    expect(await schedules.get('hourly', { tenantId: 'globex' })).toMatchObject({ revision: 1 });
  });
});
