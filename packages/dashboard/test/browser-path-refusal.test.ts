import { createServer } from 'node:http';
import type { Driver } from '@berth/core';
import { createMemoryDriver } from '@berth/driver-memory';
import express from 'express';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDashboard, type DashboardHandler } from '../src/index.js';
import { launchChromium } from './support/browser.js';
import { mustGet, type Seeded, seedEveryState } from './support/seed.js';
import { closeServer, listen } from './support/server.js';

const BASE = '/admin/queue';
let driver: Driver;
let seeded: Seeded;
let dashboard: DashboardHandler;
let browser: Browser;
let origin: string;
let server: ReturnType<typeof createServer>;

beforeAll(async () => {
  driver = createMemoryDriver();
  seeded = await seedEveryState(driver);
  dashboard = createDashboard({ driver, basePath: BASE });
  const app = express();
  // The app's own guard: only a browser carrying the admin header gets below /admin.
  app.use('/admin', (req, res, next) => {
    if (req.headers['x-admin'] === 'yes') next();
    else res.status(403).send('admins only');
  });
  app.use(dashboard);
  server = createServer(app);
  origin = await listen(server);
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  dashboard.close();
  await closeServer(server);
  await driver.close();
});

describe('Chromium at a dashboard mounted behind an Express guard on /admin', () => {
  it('a path the browser sends un-normalised (//, %2f) is refused 400, and cancels nothing', async () => {
    const admin = await browser.newContext({ extraHTTPHeaders: { 'x-admin': 'yes' } });
    const stranger = await browser.newContext();
    try {
      const adminPage = await admin.newPage();
      await adminPage.goto(`${origin}${BASE}/`);
      await adminPage.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
      const csrf = await adminPage.evaluate(
        () => JSON.parse(document.getElementById('berth-config')?.textContent ?? '{}').csrf,
      );

      const page = await stranger.newPage();
      expect((await page.goto(`${origin}${BASE}/jobs`))?.status()).toBe(403);
      for (const path of [`//x${BASE}/jobs`, `/admin%2Fqueue/jobs`]) {
        const answer = await page.goto(`${origin}${path}`);
        expect([path, answer?.status()]).toEqual([path, 400]);
        await page.getByText('PATH_NOT_NORMAL').waitFor();
      }
      // The page's own fetch, with the admin's token, down a path the guard does not see.
      const cancelled = await page.evaluate(
        async ({ target, token }) => {
          const response = await fetch(target, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-berth-csrf': token },
            body: '{}',
          });
          return [response.status, (await response.json()).error.code];
        },
        { target: `${origin}//x${BASE}/api/jobs/${seeded.ready}/cancel`, token: csrf },
      );
      expect(cancelled).toEqual([400, 'PATH_NOT_NORMAL']);
      expect((await mustGet(driver, seeded.ready)).state).toBe('ready');
    } finally {
      await admin.close();
      await stranger.close();
    }
  });
});
