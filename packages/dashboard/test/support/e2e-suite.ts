import { createScheduler, type Driver, type Scheduler } from '@berth/core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth } from '../../src/index.js';
import { artifactDir, launchChromium } from './browser.js';
import type { OpenedDriver } from './drivers.js';
import { mustGet, type Seeded, seedEveryState } from './seed.js';
import { startDashboard, type TestDashboard } from './server.js';

const SCHEDULES = [
  { name: 'nightly-digest', cron: '0 3 * * *', job: { name: 'email.digest', queue: 'emails' } },
];
const CREDENTIALS = { username: 'ops', password: 'correct horse' };

export interface E2e {
  readonly driver: Driver;
  readonly seeded: Seeded;
  readonly full: TestDashboard;
  readonly page: Page;
  readonly shot: (name: string, page?: Page) => Promise<void>;
  readonly browser: Browser;
  readonly dashboards: TestDashboard[];
  readonly requests: string[];
}

/**
 * The browser tests, run against a dashboard over a real driver (`open`), seeded with jobs in
 * every state. One Chromium connection for the file; each test drives the page as an operator
 * would.
 */
export function describeE2e(
  name: string,
  open: () => Promise<OpenedDriver>,
  tests: (e2e: () => E2e) => void,
) {
  describe(`dashboard in Chromium over ${name}`, () => {
    let state: E2e | undefined;
    let opened: OpenedDriver;
    let scheduler: Scheduler;
    let context: BrowserContext;

    beforeAll(async () => {
      opened = await open();
      const { driver } = opened;
      const seeded = await seedEveryState(driver);
      // A lease long enough to outlast the file: the schedules test reads its holder.
      scheduler = createScheduler({
        driver,
        schedules: SCHEDULES,
        holderId: 'scheduler-e2e',
        leaseTtlMs: 600_000,
      });
      await scheduler.tick();
      const full = await startDashboard({ driver, schedules: SCHEDULES, refreshMs: 60_000 });
      const browser = await launchChromium();
      context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
      const requests: string[] = [];
      context.on('request', (request) => requests.push(request.url()));
      const page = await context.newPage();
      const dir = artifactDir(name);
      state = {
        driver,
        seeded,
        full,
        page,
        browser,
        dashboards: [full],
        requests,
        shot: async (file, on = page) => {
          await on.screenshot({ path: `${dir}${file}.png`, fullPage: true });
        },
      };
    }, 60_000);

    afterAll(async () => {
      await state?.browser.close();
      for (const dashboard of state?.dashboards ?? []) await dashboard.close();
      await scheduler?.stop();
      await opened?.dispose();
    });

    const e2e = (): E2e => {
      if (state === undefined) throw new Error('the e2e setup did not run');
      return state;
    };
    tests(e2e);

    it('made no request anywhere but the dashboards themselves', () => {
      const { requests, dashboards } = e2e();
      const origins = new Set(dashboards.map((dashboard) => dashboard.origin));
      expect(requests.length).toBeGreaterThan(10);
      expect(requests.filter((url) => !origins.has(new URL(url).origin))).toEqual([]);
    });
  });
}

/** Starts another dashboard over the same driver, closed with the rest. */
export async function another(e2e: E2e, options: { readOnly?: boolean; auth?: boolean }) {
  const dashboard = await startDashboard({
    driver: e2e.driver,
    refreshMs: 60_000,
    ...(options.readOnly ? { readOnly: true } : {}),
    ...(options.auth ? { auth: basicAuth(CREDENTIALS) } : {}),
  });
  e2e.dashboards.push(dashboard);
  return dashboard;
}

export { CREDENTIALS, mustGet };
