import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Driver } from '@berth/core';
import { createMemoryDriver } from '@berth/driver-memory';
import middie from '@fastify/middie';
import { type HttpBindings, serve } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDashboard,
  type DashboardHandler,
  type JobsResponse,
  type JobView,
} from '../src/index.js';
import { mustGet, type Seeded, seedEveryState } from './support/seed.js';
import { closeServer, getApi, listen, openSession, postApi } from './support/server.js';

const BASE = '/admin/queue';
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

/**
 * What every mount must do: serve the page and a deep link, answer the API, take an action with
 * its JSON body and CSRF token, and leave every other path to the app.
 */
async function exercise(origin: string, jobId: string, body: object = {}) {
  const page = await fetch(`${origin}${BASE}`);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain(`src="${BASE}/assets/`);
  expect((await fetch(`${origin}${BASE}/jobs/${jobId}`)).status).toBe(200);
  const jobs = await getApi<JobsResponse>(`${origin}${BASE}`, '/jobs?state=dead&limit=2');
  expect([jobs.status, jobs.body.jobs.length]).toEqual([200, 2]);
  const session = await openSession(`${origin}${BASE}`);
  const retried = await postApi<{ job: JobView }>(
    `${origin}${BASE}`,
    `/jobs/${jobId}/retry`,
    session,
    body,
  );
  expect([retried.status, retried.body.job?.state]).toEqual([200, 'ready']);
  expect((await mustGet(driver, jobId)).state).toBe('ready');
  const app = await fetch(`${origin}/health`);
  expect([app.status, await app.text()]).toEqual([200, 'app ok']);
  // Put the job back for the next mount.
  await driver.cancel(jobId);
}

describe('mounts', () => {
  it('node:http — createServer((req, res) => dashboard(req, res, () => app(req, res)))', async () => {
    const app = (_req: unknown, res: import('node:http').ServerResponse) => res.end('app ok');
    const server = createServer((req, res) => dashboard(req, res, () => app(req, res)));
    const origin = await listen(server);
    try {
      await exercise(origin, seeded.withSteps, { fromStep: 'charge-card' });
    } finally {
      await closeServer(server);
    }
  });

  it('Express — app.use(dashboard), with express.json() ahead of it', async () => {
    const app = express();
    app.use(express.json());
    app.use(dashboard);
    app.get('/health', (_req, res) => {
      res.send('app ok');
    });
    const server = createServer(app);
    const origin = await listen(server);
    try {
      await exercise(origin, seeded.failed);
    } finally {
      await closeServer(server);
    }
  });

  it('Express — app.use(basePath, dashboard) mounted below a path', async () => {
    const app = express();
    app.use(BASE, dashboard);
    app.get('/health', (_req, res) => {
      res.send('app ok');
    });
    const server = createServer(app);
    const origin = await listen(server);
    try {
      await exercise(origin, seeded.cancelled);
    } finally {
      await closeServer(server);
    }
  });

  it('Fastify — await app.register(middie); app.use(dashboard)', async () => {
    const app = Fastify();
    await app.register(middie);
    app.use(dashboard);
    app.get('/health', async () => 'app ok');
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    try {
      await exercise(`http://127.0.0.1:${port}`, seeded.timedOut[0] ?? '');
    } finally {
      await app.close();
    }
  });

  it('Hono — app.all("/admin/queue/*", (c) => { dashboard(c.env.incoming, c.env.outgoing); … })', async () => {
    const app = new Hono<{ Bindings: HttpBindings }>();
    app.all(`${BASE}/*`, (c) => {
      dashboard(c.env.incoming, c.env.outgoing);
      return RESPONSE_ALREADY_SENT;
    });
    app.get('/health', (c) => c.text('app ok'));
    const server = await new Promise<Server>((resolve) => {
      const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () =>
        resolve(started as Server),
      );
    });
    const { port } = server.address() as AddressInfo;
    try {
      await exercise(`http://127.0.0.1:${port}`, seeded.timedOut[1] ?? '');
    } finally {
      await closeServer(server);
    }
  });
});
