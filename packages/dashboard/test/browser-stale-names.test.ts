import { createManualClock, type Driver } from '@berth/core';
import { createMemoryDriver } from '@berth/driver-memory';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserDashboard, openBrowserDashboard } from './support/browser-dashboard.js';

const MINUTE = 60_000;
let driver: Driver;
let opened: BrowserDashboard;
let browser: Browser;
let origin: string;

beforeAll(async () => {
  const clock = createManualClock(Date.UTC(2026, 5, 1, 12));
  driver = createMemoryDriver({ clock });
  await driver.enqueue({ name: 'report.build', queue: 'reports' });
  await clock.advance(7 * MINUTE);
  await driver.enqueue({ name: 'email.send', queue: 'mail' });
  opened = await openBrowserDashboard({ driver });
  ({ browser, origin } = opened);
}, 60_000);
afterAll(async () => {
  await opened?.close();
  await driver.close();
});

describe('Chromium at the overview', () => {
  it('flags a job name whose ready jobs waited past staleReadyAfterMs, linked to its ready jobs, and marks its queue', async () => {
    const page = await browser.newPage({ timezoneId: 'UTC' });
    try {
      await page.goto(`${origin}/`);
      const section = page.getByRole('region', {
        name: 'Ready jobs no worker ran for over 5 min',
      });
      await section.waitFor();
      const link = section.getByRole('link', { name: 'report.build' });
      expect(await link.getAttribute('href')).toMatch(/jobs\?.*queue=reports.*name=report\.build/);
      // How long it waited, and since when (the oldest ready job's run time).
      const age = section.getByRole('cell', { name: '7 min (since 2026-06-01 12:00:00 UTC)' });
      expect(await age.count()).toBe(1);
      expect(await section.getByText('email.send').count()).toBe(0);
      const reportsRow = page.getByRole('row', { name: /^reports/ });
      expect(await reportsRow.getByTitle('holds ready jobs no worker ran').count()).toBe(1);
      const mailRow = page.getByRole('row', { name: /^mail/ });
      expect(await mailRow.getByTitle('holds ready jobs no worker ran').count()).toBe(0);
    } finally {
      await page.close();
    }
  });
});
