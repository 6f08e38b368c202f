import type { IncomingMessage } from 'node:http';
import type { Driver } from '@berth/core';
import { createMemoryDriver } from '@berth/driver-memory';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { basicAuth, type DashboardOptions, type JobResponse } from '../src/index.js';
import { loopbackRefusal } from '../src/security/loopback.js';
import { mustGet, type Seeded, seedEveryState } from './support/seed.js';
import {
  getApi,
  openSession,
  postApi,
  rawGet,
  startDashboard,
  type TestDashboard,
} from './support/server.js';

let driver: Driver;
let seeded: Seeded;
const opened: TestDashboard[] = [];

beforeEach(async () => {
  driver = createMemoryDriver();
  seeded = await seedEveryState(driver);
});
afterEach(async () => {
  for (const served of opened.splice(0)) await served.close();
  await driver.close();
});

async function start(options: Omit<DashboardOptions, 'driver'> = {}) {
  const served = await startDashboard({ driver, ...options });
  opened.push(served);
  return served;
}

const fakeRequest = (remoteAddress: string, headers: Record<string, string>) =>
  ({ socket: { remoteAddress }, headers }) as unknown as IncomingMessage;

describe('without auth: this machine only', () => {
  it('accepts a loopback peer naming a loopback host, and nothing else', () => {
    const host = { host: '127.0.0.1:4100' };
    expect(loopbackRefusal(fakeRequest('127.0.0.1', host))).toBeUndefined();
    expect(loopbackRefusal(fakeRequest('::1', { host: '[::1]:4100' }))).toBeUndefined();
    expect(loopbackRefusal(fakeRequest('::ffff:127.0.0.1', { host: 'localhost' }))).toBeUndefined();
    expect(loopbackRefusal(fakeRequest('10.1.2.3', host))).toBe('the request came from 10.1.2.3');
    expect(loopbackRefusal(fakeRequest('::ffff:192.168.0.9', host))).toContain('192.168.0.9');
    expect(
      loopbackRefusal(fakeRequest('127.0.0.1', { ...host, 'x-forwarded-for': '1.2.3.4' })),
    ).toBe('the request came through a proxy (x-forwarded-for)');
    expect(loopbackRefusal(fakeRequest('127.0.0.1', { host: 'evil.example' }))).toBe(
      'the request\'s Host is "evil.example"',
    );
  });

  it('refuses a proxied request or a foreign Host (DNS rebinding) with 403, and says why', async () => {
    const served = await start();
    const proxied = await fetch(`${served.base}/`, {
      headers: { 'x-forwarded-for': '203.0.113.7' },
    });
    expect(proxied.status).toBe(403);
    expect(await proxied.text()).toContain('accepts only requests from this machine');
    const rebound = await rawGet(`${served.base}/api/overview`, { host: 'attacker.example' });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body)).toMatchObject({ error: { code: 'LOOPBACK_ONLY' } });
    const local = await openSession(served.base);
    expect(local.response.status).toBe(200);
    expect(local.html).toContain('"loopbackOnly":true');
  });
});

describe('auth', () => {
  it('refuses an unauthenticated request with 401 and a challenge, and admits the right credentials', async () => {
    const served = await start({ auth: basicAuth({ username: 'ops', password: 's3cret' }) });
    const anonymous = await fetch(`${served.base}/`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Basic realm="Berth", charset="UTF-8"');
    const api = await getApi<{ error: { code: string } }>(served.base, '/jobs');
    expect([api.status, api.body.error.code]).toEqual([401, 'UNAUTHORIZED']);
    const wrong = `Basic ${Buffer.from('ops:guess').toString('base64')}`;
    expect((await fetch(`${served.base}/`, { headers: { authorization: wrong } })).status).toBe(
      401,
    );
    const right = { authorization: `Basic ${Buffer.from('ops:s3cret').toString('base64')}` };
    const session = await openSession(served.base, right);
    expect(session.response.status).toBe(200);
    expect(session.html).toContain('"loopbackOnly":false');
    // With auth, a proxied request is the app's to judge: auth admitted it.
    const proxied = await getApi(served.base, '/jobs', {
      ...right,
      'x-forwarded-for': '203.0.113.7',
    });
    expect(proxied.status).toBe(200);
  });

  it('lets auth answer the request itself (a redirect to a login page)', async () => {
    const served = await start({
      auth: async (request, response) => {
        if (request.headers.cookie?.includes('session=ok')) return true;
        response.statusCode = 302;
        response.setHeader('Location', '/login');
        response.end();
        return false;
      },
    });
    const redirected = await fetch(`${served.base}/jobs`, { redirect: 'manual' });
    expect([redirected.status, redirected.headers.get('location')]).toEqual([302, '/login']);
    const admitted = await getApi(served.base, '/jobs', { cookie: 'session=ok' });
    expect(admitted.status).toBe(200);
  });
});

describe('readOnly', () => {
  it('offers no action and refuses every action request, even one with a valid token', async () => {
    const served = await start({ readOnly: true });
    const session = await openSession(served.base);
    expect(session.html).toContain('"readOnly":true');
    const job = await getApi<JobResponse>(served.base, `/jobs/${seeded.withSteps}`);
    expect(job.body.actions).toEqual({
      retry: false,
      retryFromStep: false,
      cancel: false,
      promote: false,
      delete: false,
    });
    for (const [path, body] of [
      [`/jobs/${seeded.withSteps}/retry`, {}],
      [`/jobs/${seeded.ready}/cancel`, {}],
      [`/jobs/${seeded.delayed}/promote`, {}],
      [`/jobs/${seeded.ready}/delete`, {}],
      ['/jobs/bulk', { action: 'delete', ids: [seeded.ready, seeded.withSteps] }],
      ['/dead-letters/purge', { key: 'k', ids: seeded.declined }],
    ] as const) {
      const answer = await postApi<{ error: { code: string } }>(served.base, path, session, body);
      expect([answer.status, answer.body.error.code], path).toEqual([403, 'READ_ONLY']);
    }
    expect((await mustGet(driver, seeded.withSteps)).state).toBe('dead');
    expect((await mustGet(driver, seeded.ready)).state).toBe('ready');
    expect((await mustGet(driver, seeded.delayed)).state).toBe('delayed');
    for (const id of seeded.declined) expect((await mustGet(driver, id)).state).toBe('dead');
  });
});

describe('CSRF', () => {
  const retry = () => `/jobs/${seeded.failed}/retry`;

  it('refuses an action without the token, with a wrong one, or with another cookie’s', async () => {
    const served = await start();
    const session = await openSession(served.base);
    const other = await openSession(served.base);
    const cases = [
      { cookie: session.cookie, csrf: '' },
      { cookie: '', csrf: session.csrf },
      { cookie: session.cookie, csrf: other.csrf },
      { cookie: session.cookie, csrf: `${session.csrf.slice(0, -2)}AA` },
    ];
    for (const forged of cases) {
      const answer = await postApi<{ error: { code: string } }>(served.base, retry(), forged);
      expect([answer.status, answer.body.error.code]).toEqual([403, 'CSRF_REFUSED']);
    }
    expect((await mustGet(driver, seeded.failed)).state).toBe('failed');
    const ok = await postApi(served.base, retry(), session);
    expect(ok.status).toBe(200);
  });

  it('refuses a form post, a foreign Origin and a cross-site fetch even with the token', async () => {
    const served = await start();
    const session = await openSession(served.base);
    const form = await fetch(`${served.base}/api${retry()}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: session.cookie,
        'x-berth-csrf': session.csrf,
      },
      body: 'fromStep=x',
    });
    expect(form.status).toBe(403);
    for (const headers of [
      { origin: 'https://attacker.example' },
      { 'sec-fetch-site': 'cross-site' },
    ]) {
      const answer = await postApi<{ error: { message: string } }>(
        served.base,
        retry(),
        session,
        {},
        headers,
      );
      expect(answer.status).toBe(403);
    }
    const sameOrigin = await postApi(
      served.base,
      retry(),
      session,
      {},
      {
        origin: served.origin,
        'sec-fetch-site': 'same-origin',
      },
    );
    expect(sameOrigin.status).toBe(200);
  });

  it('accepts a token from another process serving the same dashboard only with a shared csrfSecret', async () => {
    const a = await start();
    const b = await start();
    const fromA = await openSession(a.base);
    expect((await postApi(b.base, retry(), fromA)).status).toBe(403);
    const csrfSecret = 'a-secret-both-processes-share';
    const c = await start({ csrfSecret });
    const d = await start({ csrfSecret });
    expect((await postApi(d.base, retry(), await openSession(c.base))).status).toBe(200);
  });
});
