import { type ClaimedJob, createManualClock, type Driver } from '@berth/core';
import { createMemoryDriver } from '@berth/driver-memory';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserDashboard, openBrowserDashboard } from './support/browser-dashboard.js';

const MINUTE = 60_000;
let driver: Driver;
let opened: BrowserDashboard;
let browser: Browser;
let origin: string;
let keyed: readonly ClaimedJob[];

beforeAll(async () => {
  const clock = createManualClock(Date.UTC(2026, 5, 1, 12));
  driver = createMemoryDriver({ clock });
  await driver.enqueue({ name: 'report.build', queue: 'reports' });
  await clock.advance(7 * MINUTE);
  await driver.enqueue({ name: 'email.send', queue: 'mail' });
  // Running keyed jobs: 22 keys, so the overview shows the 20 busiest and says 2 more.
  const exports = Array.from({ length: 20 }, (_, index) => ({
    name: 'tenant.export',
    queue: 'billing',
    concurrencyKey: `exp-${String(index + 1).padStart(2, '0')}`,
  }));
  await driver.enqueueMany([
    ...Array.from({ length: 3 }, () => ({
      name: 'account.sync',
      queue: 'billing',
      concurrencyKey: 'acct-1',
    })),
    { name: 'email.send', queue: 'billing', concurrencyKey: 'acct-2' },
    ...exports,
  ]);
  keyed = await driver.claim({
    queues: ['billing'],
    workerId: 'w',
    visibilityTimeoutMs: 60_000,
    limit: 30,
  });
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

  it('lists the concurrency keys in use, busiest first, linked to the name’s running jobs, then an empty state once none runs', async () => {
    const page = await browser.newPage({ timezoneId: 'UTC' });
    try {
      await page.goto(`${origin}/`);
      const section = page.getByRole('region', { name: 'Concurrency keys in use' });
      await section.waitFor();
      const rows = section.locator('tbody tr');
      expect(await rows.count()).toBe(20);
      const cells = async (index: number) =>
        (await rows.nth(index).getByRole('cell').allInnerTexts()).map((text) => text.trim());
      expect(await cells(0)).toEqual(['account.sync', 'acct-1', '3']);
      expect(await cells(1)).toEqual(['email.send', 'acct-2', '1']);
      expect(await cells(2)).toEqual(['tenant.export', 'exp-01', '1']);
      const link = rows.nth(0).getByRole('link', { name: 'account.sync' });
      expect(await link.getAttribute('href')).toMatch(
        /jobs\?(?=.*name=account\.sync)(?=.*state=running)/,
      );
      await section.getByText('2 more keys have running jobs; the 20 busiest are shown.').waitFor();
      await driver.ackMany(
        keyed.map((job) => ({ fence: { jobId: job.id, workerId: 'w', claim: job.claim } })),
      );
      await page.reload();
      await section.getByText('No job with a concurrency key is running.').waitFor();
      expect(await section.locator('table').count()).toBe(0);
    } finally {
      await page.close();
    }
  });
});
