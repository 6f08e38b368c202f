import { createClient, createScheduler } from '@berth/core';
import { describe, expect, it } from 'vitest';
import type { SchedulesResponse, StoredScheduleResponse } from '../src/index.js';
import { getApi, openSession, postApi } from './support/server.js';
import {
  AT_13,
  clock,
  DAY,
  driver,
  HOUR,
  labels,
  type Refusal,
  start,
  stored,
  storedScheduleHooks,
  T0,
  upsert,
} from './support/stored-schedules.js';

storedScheduleHooks();

describe('GET /api/schedules: the stored schedules', () => {
  it('answers a page of them by name then tenant, each with its next slots; a paused one has none', async () => {
    await upsert({ name: 'hourly', cron: '0 * * * *', job: 'report.build', queue: 'reports' });
    await upsert({
      name: 'nightly',
      cron: '0 3 * * *',
      timezone: 'Europe/Paris',
      job: 'digest.send',
      payload: { to: 'ops' },
      tenantId: 'acme',
    });
    await upsert({ name: 'nightly', cron: '0 3 * * *', job: 'digest.send', paused: true });
    const served = await start({
      schedules: [{ name: 'in-code', cron: '0 * * * *', job: 'x' }],
    });
    const { body } = await getApi<SchedulesResponse>(served.base, '/schedules');
    // The schedules in code are answered as before, beside the stored ones.
    expect(body.schedules.map((schedule) => schedule.name)).toEqual(['in-code']);
    expect(body.stored.limit).toBe(50);
    expect(body.stored).not.toHaveProperty('next');
    expect(labels(body.stored.schedules)).toEqual(['-/hourly', '-/nightly', 'acme/nightly']);
    const [hourly, paused, acme] = body.stored.schedules;
    expect(hourly).toEqual({
      name: 'hourly',
      cron: '0 * * * *',
      job: 'report.build',
      queue: 'reports',
      payload: null,
      paused: false,
      nextAt: AT_13,
      next: [AT_13, AT_13 + HOUR, AT_13 + 2 * HOUR],
      last: null,
      revision: 1,
      createdAt: T0,
      updatedAt: T0,
    });
    expect(paused).toMatchObject({ name: 'nightly', paused: true, next: [] });
    expect(paused).not.toHaveProperty('tenantId');
    // 03:00 in Paris is 01:00 UTC in June.
    const first = Date.UTC(2026, 5, 2, 1, 0, 0);
    expect(acme).toMatchObject({
      tenantId: 'acme',
      timezone: 'Europe/Paris',
      payload: { to: 'ops' },
      next: [first, first + DAY, first + 2 * DAY],
    });
  });

  it('answers each schedule’s last enqueued slot with its job’s state, per tenant; null once that job is purged', async () => {
    await upsert({ name: 'hourly', cron: '0 * * * *', job: 'report.build', tenantId: 'acme' });
    const scheduler = createScheduler({ driver });
    await clock.set(AT_13);
    const [enqueued] = (await scheduler.tick()).enqueued;
    const served = await start();
    const [hourly] = (await stored(served.base)).schedules;
    expect(hourly?.last).toEqual({ slot: AT_13, jobId: enqueued?.jobId, state: 'ready' });
    await driver.delete(enqueued?.jobId ?? '', { tenantId: 'acme' });
    const [gone] = (await stored(served.base)).schedules;
    expect(gone?.last).toEqual({ slot: AT_13, jobId: enqueued?.jobId, state: null });
  });

  it('pages with limit and after; refuses a bad limit or a cursor no page made with 400', async () => {
    for (const name of ['a', 'b', 'c', 'd', 'e']) {
      await upsert({ name, cron: '0 * * * *', job: 'tick' });
    }
    const served = await start();
    const first = await stored(served.base, '?limit=2');
    expect(labels(first.schedules)).toEqual(['-/a', '-/b']);
    expect(first.limit).toBe(2);
    const seen = [...first.schedules];
    for (let next = first.next; next !== undefined; ) {
      const page = await stored(served.base, `?limit=2&after=${encodeURIComponent(next)}`);
      seen.push(...page.schedules);
      next = page.next;
    }
    expect(labels(seen)).toEqual(['-/a', '-/b', '-/c', '-/d', '-/e']);
    for (const limit of ['0', '101', '1.5', 'ten']) {
      const bad = await getApi<Refusal>(served.base, `/schedules?limit=${limit}`);
      expect([bad.status, bad.body.error.code, bad.body.error.message]).toEqual([
        400,
        'JOB_INVALID',
        expect.stringContaining('limit'),
      ]);
    }
    const forged = await getApi<Refusal>(served.base, '/schedules?after=forged');
    expect([forged.status, forged.body.error.code]).toEqual([400, 'JOB_PAGE_INVALID']);
  });
});

describe('POST /api/schedules/pause, /resume and /remove', () => {
  it('pause stops its slots, resume starts at the next slot after now; each answers the record', async () => {
    await upsert({ name: 'hourly', cron: '0 * * * *', job: 'report.build', queue: 'reports' });
    const scheduler = createScheduler({ driver, holderId: 'node-a' });
    const served = await start();
    const session = await openSession(served.base);
    const paused = await postApi<StoredScheduleResponse>(served.base, '/schedules/pause', session, {
      name: 'hourly',
    });
    expect(paused.status).toBe(200);
    expect(paused.body.schedule).toMatchObject({
      name: 'hourly',
      paused: true,
      revision: 2,
      next: [],
    });
    // Idempotent: a repeat answers the schedule as it stands, with nothing written.
    const again = await postApi<StoredScheduleResponse>(served.base, '/schedules/pause', session, {
      name: 'hourly',
    });
    expect(again.body.schedule.revision).toBe(2);
    // The scheduler enqueues none of the slots it is paused through.
    clock.set(T0 + 2 * HOUR - 5 * 60_000);
    await scheduler.tick();
    expect((await driver.list({ queue: 'reports' })).jobs).toEqual([]);
    const resumed = await postApi<StoredScheduleResponse>(
      served.base,
      '/schedules/resume',
      session,
      { name: 'hourly' },
    );
    const at15 = AT_13 + 2 * HOUR;
    expect(resumed.body.schedule).toMatchObject({
      paused: false,
      nextAt: at15,
      next: [at15, at15 + HOUR, at15 + 2 * HOUR],
      revision: 3,
    });
    expect((await stored(served.base)).schedules[0]).toEqual(resumed.body.schedule);
    clock.set(at15 + 1_000);
    await scheduler.tick();
    expect((await driver.list({ queue: 'reports' })).jobs.map((job) => job.name)).toEqual([
      'report.build',
    ]);
    await scheduler.stop();
  });

  it('remove answers the record it removed; a name not stored is 404 SCHEDULE_NOT_FOUND with a fix', async () => {
    await upsert({ name: 'reports/daily', cron: '0 6 * * *', job: 'report.build' });
    const served = await start();
    const session = await openSession(served.base);
    // A name may hold a slash: it is sent in the body.
    const removed = await postApi<StoredScheduleResponse>(
      served.base,
      '/schedules/remove',
      session,
      { name: 'reports/daily' },
    );
    expect(removed.status).toBe(200);
    expect(removed.body.schedule).toMatchObject({ name: 'reports/daily', revision: 1 });
    expect(await createClient({ driver }).schedules.get('reports/daily')).toBeUndefined();
    expect((await stored(served.base)).schedules).toEqual([]);
    // A remove sent again (its answer lost) finds nothing, as a deleted job's delete does.
    for (const action of ['remove', 'pause', 'resume']) {
      const missing = await postApi<Refusal>(served.base, `/schedules/${action}`, session, {
        name: 'reports/daily',
      });
      expect(missing.status, action).toBe(404);
      expect(missing.body.error).toEqual({
        code: 'SCHEDULE_NOT_FOUND',
        message: 'no schedule "reports/daily" is stored',
        fix: expect.stringContaining('the Schedules page lists the stored schedules'),
      });
      expect(missing.body.error.fix).not.toMatch(/berth |--/);
    }
  });

  it('refuses a body without a name, with a field it does not take, or that is no object, with 400', async () => {
    await upsert({ name: 'hourly', cron: '0 * * * *', job: 'tick' });
    const served = await start();
    const session = await openSession(served.base);
    const bodies: [unknown, string][] = [
      [{}, 'name'],
      [{ name: '' }, 'name'],
      [{ name: 7 }, 'name'],
      [{ name: 'hourly', tenantId: 3 }, 'tenantId'],
      [{ name: 'hourly', cron: '* * * * *' }, 'cron'],
      [['hourly'], 'body'],
    ];
    for (const [body, field] of bodies) {
      const answer = await postApi<Refusal>(served.base, '/schedules/pause', session, body);
      expect([answer.status, answer.body.error.code], JSON.stringify(answer.body)).toEqual([
        400,
        'JOB_INVALID',
      ]);
      expect(answer.body.error.message).toContain(field);
    }
    expect((await stored(served.base)).schedules[0]).toMatchObject({ paused: false, revision: 1 });
  });

  it('read-only mode refuses each with 403 READ_ONLY; CSRF and a foreign origin are refused as every action', async () => {
    await upsert({ name: 'hourly', cron: '0 * * * *', job: 'tick' });
    await upsert({ name: 'paused', cron: '0 * * * *', job: 'tick', paused: true });
    const readOnly = await start({ readOnly: true });
    const session = await openSession(readOnly.base);
    for (const [action, name] of [
      ['pause', 'hourly'],
      ['resume', 'paused'],
      ['remove', 'hourly'],
    ] as const) {
      const answer = await postApi<Refusal>(readOnly.base, `/schedules/${action}`, session, {
        name,
      });
      expect([answer.status, answer.body.error.code], action).toEqual([403, 'READ_ONLY']);
    }
    // It still lists them.
    expect(labels((await stored(readOnly.base)).schedules)).toEqual(['-/hourly', '-/paused']);

    const served = await start();
    const own = await openSession(served.base);
    const forged = await postApi<Refusal>(
      served.base,
      '/schedules/remove',
      { cookie: own.cookie, csrf: '' },
      { name: 'hourly' },
    );
    expect([forged.status, forged.body.error.code]).toEqual([403, 'CSRF_REFUSED']);
    const foreign = await postApi<Refusal>(
      served.base,
      '/schedules/pause',
      own,
      { name: 'hourly' },
      { origin: 'https://evil.example' },
    );
    expect([foreign.status, foreign.body.error.code]).toEqual([403, 'CSRF_REFUSED']);
    const crossSite = await postApi<Refusal>(
      served.base,
      '/schedules/pause',
      own,
      { name: 'hourly' },
      { 'sec-fetch-site': 'cross-site' },
    );
    expect([crossSite.status, crossSite.body.error.code]).toEqual([403, 'CSRF_REFUSED']);
    const [hourly, paused] = (await stored(served.base)).schedules;
    expect([hourly?.paused, hourly?.revision, paused?.paused]).toEqual([false, 1, true]);
  });
});
