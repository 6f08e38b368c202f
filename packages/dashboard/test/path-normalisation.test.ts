import { createServer, type RequestListener } from 'node:http';
import type { Driver } from '@berth/core';
import { createMemoryDriver } from '@berth/driver-memory';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDashboard, type DashboardHandler } from '../src/index.js';
import { mustGet, type Seeded, seedEveryState } from './support/seed.js';
import { closeServer, listen, openSession, rawRequest } from './support/server.js';

const BASE = '/admin/queue';
const ADMIN = { 'x-admin': 'yes' };
let driver: Driver;
let seeded: Seeded;
let dashboard: DashboardHandler;

beforeAll(async () => {
  driver = createMemoryDriver();
  seeded = await seedEveryState(driver);
  dashboard = createDashboard({ driver, basePath: BASE });
});
afterAll(async () => {
  dashboard.close();
  await driver.close();
});

async function serve(listener: RequestListener) {
  const server = createServer(listener);
  return { server, origin: await listen(server) };
}

/** The app's own guard on `/admin`, as an app would write it, with the dashboard below it. */
function guardedExpress() {
  const app = express();
  app.use('/admin', (req, res, next) => {
    if (req.headers['x-admin'] === 'yes') next();
    else res.status(403).send('admins only');
  });
  app.use(dashboard);
  return app;
}

/** Each names the dashboard's API once normalised, and is not what it names as sent. */
const NOT_NORMAL = [
  '/x/../admin/queue/api/jobs',
  '//x/admin/queue/api/jobs',
  '/admin/queue//api/jobs',
  '/admin/queue/./api/jobs',
  '/admin/queue/api/x/%2e%2e/jobs',
  '/admin/queue/api/x/%2E%2e/jobs',
  '/admin%2fqueue/api/jobs',
  '/admin/queue/api%2Fjobs',
  '/admin\\queue/api/jobs',
  '/admin/queue/api/jobs/.',
];

describe('a request whose path is not its normalised form', () => {
  it('behind an Express guard on /admin: the issue’s two paths are refused 400, not served', async () => {
    const { server, origin } = await serve(guardedExpress());
    try {
      expect((await rawRequest(origin, `${BASE}/api/jobs`)).status).toBe(403);
      expect((await rawRequest(origin, `${BASE}/api/jobs`, { headers: ADMIN })).status).toBe(200);
      for (const target of ['/x/../admin/queue/api/jobs', '//x/admin/queue/api/jobs']) {
        const answer = await rawRequest(origin, target);
        expect([target, answer.status]).toEqual([target, 400]);
        expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'PATH_NOT_NORMAL' } });
      }
    } finally {
      await closeServer(server);
    }
  });

  it('behind an Express guard: a POST past the guard does not cancel the job', async () => {
    const { server, origin } = await serve(guardedExpress());
    try {
      // A real session (cookie and token) from the guarded page: only the path is the attack.
      const session = await openSession(`${origin}${BASE}`, ADMIN);
      const headers = {
        'content-type': 'application/json',
        cookie: session.cookie,
        'x-berth-csrf': session.csrf,
      };
      for (const target of [
        `/x/..${BASE}/api/jobs/${seeded.ready}/cancel`,
        `//x${BASE}/api/jobs/${seeded.ready}/cancel`,
      ]) {
        const answer = await rawRequest(origin, target, { method: 'POST', headers, body: '{}' });
        expect([target, answer.status]).toEqual([target, 400]);
        expect((await mustGet(driver, seeded.ready)).state).toBe('ready');
      }
    } finally {
      await closeServer(server);
    }
  });

  it('on plain node:http: every spelling of .., ., //, %2e, %2f and \\ is refused 400', async () => {
    const { server, origin } = await serve((req, res) =>
      dashboard(req, res, () => res.end('app ok')),
    );
    try {
      for (const target of NOT_NORMAL) {
        const answer = await rawRequest(origin, target);
        expect([target, answer.status]).toEqual([target, 400]);
        expect(JSON.parse(answer.body)).toMatchObject({
          error: { code: 'PATH_NOT_NORMAL', message: expect.stringContaining('normal') },
        });
      }
      const page = await rawRequest(origin, '/x/../admin/queue/jobs');
      expect([page.status, page.body]).toEqual([400, expect.stringContaining('normal')]);
      // Normal paths, queries that hold such text, and the app's own paths are untouched.
      expect((await rawRequest(origin, `${BASE}/api/jobs?name=a/../b//c`)).status).toBe(200);
      expect((await rawRequest(origin, `${BASE}/jobs/${seeded.ready}`)).status).toBe(200);
      expect((await rawRequest(origin, '/x/../health')).body).toBe('app ok');
    } finally {
      await closeServer(server);
    }
  });
});
