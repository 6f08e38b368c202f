import { createClient, createScheduler, type Driver } from '@berth/core';
import { createMemoryDriver } from '@berth/driver-memory';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserDashboard, openBrowserDashboard } from './support/browser-dashboard.js';
import { startDashboard } from './support/server.js';

/** A schedule name that would run script if the page ever wrote it as HTML. */
const HOSTILE = '<img src=x onerror="window.__berthPwned=1">';

let driver: Driver;
let opened: BrowserDashboard;
let browser: Browser;
let origin: string;

const schedules = () => createClient({ driver }).schedules;

beforeAll(async () => {
  driver = createMemoryDriver();
  await schedules().upsert({ name: 'nightly', cron: '0 3 * * *', job: 'digest.send' });
  await schedules().upsert({
    name: HOSTILE,
    cron: '0 4 * * *',
    timezone: 'Europe/Paris',
    job: 'report.build',
    queue: 'reports',
    tenantId: 'acme',
  });
  opened = await openBrowserDashboard({ driver, refreshMs: 60_000 });
  ({ browser, origin } = opened);
}, 60_000);
afterAll(async () => {
  await opened?.close();
  await driver.close();
});

describe('Chromium at the schedules page: stored schedules', () => {
  it('pauses a stored schedule after asking and shows it paused, then resumes it and shows it active', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${origin}/schedules`);
      const table = page.getByRole('table', { name: 'Stored schedules' });
      const nightly = table.getByRole('row', { name: /^nightly/ });
      await nightly.getByText('active', { exact: true }).waitFor();
      // Its next slot in the dashboard's time format: a <time> with the instant.
      const nextAt = (await schedules().get('nightly'))?.nextAt ?? 0;
      expect(await nightly.locator('time').first().getAttribute('datetime')).toBe(
        new Date(nextAt).toISOString(),
      );

      await nightly.getByRole('button', { name: 'Pause nightly' }).click();
      await page
        .getByRole('dialog', { name: 'Pause schedule “nightly”?' })
        .getByRole('button', { name: 'Pause', exact: true })
        .click();
      await nightly.getByText('paused', { exact: true }).waitFor();
      await page.getByText('nightly is paused.').waitFor();
      expect(await schedules().get('nightly')).toMatchObject({ paused: true, revision: 2 });
      expect(await nightly.locator('time').count()).toBe(0);

      await nightly.getByRole('button', { name: 'Resume nightly' }).click();
      await page
        .getByRole('dialog', { name: 'Resume schedule “nightly”?' })
        .getByRole('button', { name: 'Resume', exact: true })
        .click();
      await nightly.getByText('active', { exact: true }).waitFor();
      await nightly.getByRole('button', { name: 'Pause nightly' }).waitFor();
      expect(await schedules().get('nightly')).toMatchObject({ paused: false, revision: 3 });
    } finally {
      await page.close();
    }
  });

  it('shows the last slot a scheduler enqueued, linked to its job with the job’s state', async () => {
    await schedules().upsert({
      name: 'caught-up',
      cron: '0 3 * * *',
      job: 'digest.send',
      catchUp: 1,
    });
    const [enqueued] = (await createScheduler({ driver }).tick()).enqueued;
    if (enqueued === undefined) throw new Error('catchUp 1 enqueued no slot');
    const page = await browser.newPage();
    try {
      await page.goto(`${origin}/schedules`);
      const row = page
        .getByRole('table', { name: 'Stored schedules' })
        .getByRole('row', { name: /^caught-up/ });
      const last = row.getByTestId('stored-last');
      await last.getByRole('link').waitFor();
      expect(await last.getByRole('link').getAttribute('href')).toContain(
        `/jobs/${enqueued.jobId}`,
      );
      expect(await last.locator('time').getAttribute('datetime')).toBe(
        new Date(enqueued.slot).toISOString(),
      );
      expect(await last.getByText('ready', { exact: true }).count()).toBe(1);
    } finally {
      await page.close();
      await schedules().remove('caught-up');
    }
  });

  it('shows a hostile name as text, and removes it only once the confirmation is accepted', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${origin}/schedules`);
      const table = page.getByRole('table', { name: 'Stored schedules' });
      const row = table.getByRole('row', { name: /^<img src=x/ });
      await row.getByRole('rowheader', { name: HOSTILE }).waitFor();
      await row.getByText('acme', { exact: true }).waitFor();
      await row.getByText('Europe/Paris', { exact: true }).waitFor();
      expect(await page.locator('img[src="x"]').count()).toBe(0);
      expect(await page.evaluate(() => '__berthPwned' in window)).toBe(false);

      const label = `${HOSTILE} (tenant acme)`;
      await row.getByRole('button', { name: `Remove ${label}` }).click();
      const dialog = page.getByRole('dialog', { name: `Remove schedule “${label}” for good?` });
      await dialog.waitFor();
      // Escape backs out, and nothing changes.
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      expect(await schedules().get(HOSTILE, { tenantId: 'acme' })).toBeDefined();
      await row.getByRole('button', { name: `Remove ${label}` }).click();
      await dialog.getByRole('button', { name: 'Remove', exact: true }).click();
      await row.waitFor({ state: 'detached' });
      await page.getByText(`${label} is removed.`).waitFor();
      expect(await schedules().get(HOSTILE, { tenantId: 'acme' })).toBeUndefined();
      expect(await page.evaluate(() => '__berthPwned' in window)).toBe(false);
    } finally {
      await page.close();
    }
  });

  it('offers no action in read-only mode', async () => {
    const readOnly = await startDashboard({ driver, readOnly: true });
    const page = await browser.newPage();
    try {
      await page.goto(`${readOnly.origin}/schedules`);
      const table = page.getByRole('table', { name: 'Stored schedules' });
      await table.getByRole('row', { name: /^nightly/ }).waitFor();
      expect(await table.getByRole('button').count()).toBe(0);
    } finally {
      await page.close();
      await readOnly.close();
    }
  });
});
