import type { Driver } from '@berth/core';
import { createMemoryDriver } from '@berth/driver-memory';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserDashboard, openBrowserDashboard } from './support/browser-dashboard.js';
import { startDashboard } from './support/server.js';

let driver: Driver;
let opened: BrowserDashboard;
let browser: Browser;
let origin: string;

beforeAll(async () => {
  driver = createMemoryDriver();
  await driver.enqueue({ name: 'email.send', queue: 'mail' });
  await driver.enqueue({ name: 'report.build', queue: 'reports' });
  opened = await openBrowserDashboard({ driver });
  ({ browser, origin } = opened);
}, 60_000);
afterAll(async () => {
  await opened?.close();
  await driver.close();
});

const claimOf = (queue: string) =>
  driver.claim({ queues: [queue], limit: 1, workerId: 'browser', visibilityTimeoutMs: 60_000 });

describe('Chromium at the overview', () => {
  it('pauses a queue after asking, marks it paused, and resumes it: claims stop and start again', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${origin}/`);
      const mail = page.getByRole('row', { name: /^mail/ });
      await mail.getByRole('button', { name: 'Pause mail' }).click();
      const dialog = page.getByRole('dialog', { name: 'Pause queue “mail”?' });
      await dialog.getByRole('button', { name: 'Pause', exact: true }).click();
      await mail.getByText('paused', { exact: true }).waitFor();
      expect(await driver.pauses.list()).toMatchObject([{ queue: 'mail', paused: true }]);
      expect(await claimOf('mail')).toEqual([]);
      const reports = page.getByRole('row', { name: /^reports/ });
      expect(await reports.getByText('active', { exact: true }).count()).toBe(1);

      await mail.getByRole('button', { name: 'Resume mail' }).click();
      await page
        .getByRole('dialog', { name: 'Resume queue “mail”?' })
        .getByRole('button', { name: 'Resume', exact: true })
        .click();
      await mail.getByText('active', { exact: true }).waitFor();
      expect(await driver.pauses.list()).toEqual([]);
      expect(await claimOf('mail')).toHaveLength(1);
    } finally {
      await page.close();
    }
  });

  it('offers no pause control in read-only mode', async () => {
    const readOnly = await startDashboard({ driver, readOnly: true });
    const readOnlyOrigin = readOnly.origin;
    const page = await browser.newPage();
    try {
      await driver.pauses.pause('reports');
      await page.goto(`${readOnlyOrigin}/`);
      const reports = page.getByRole('row', { name: /^reports/ });
      await reports.getByText('paused', { exact: true }).waitFor();
      expect(await page.getByRole('button', { name: /^(Pause|Resume) / }).count()).toBe(0);
    } finally {
      await page.close();
      await driver.pauses.resume('reports');
      await readOnly.close();
    }
  });
});
