import type { Driver } from '@berth/core';
import { createMemoryDriver } from '@berth/driver-memory';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserDashboard, openBrowserDashboard } from './support/browser-dashboard.js';

const W = 'browser';
let driver: Driver;
let opened: BrowserDashboard;
let browser: Browser;
let origin: string;
let before: string;

async function claimed(name: string, queue: string) {
  const { id } = await driver.enqueue({ name, queue });
  const [job] = await driver.claim({ queues: [queue], workerId: W, visibilityTimeoutMs: 60_000 });
  if (job?.id !== id) throw new Error(`expected to claim ${id}`);
  return { id, fence: { jobId: id, workerId: W, claim: job.claim } };
}

async function completed(name: string, queue: string): Promise<string> {
  const { id, fence } = await claimed(name, queue);
  await driver.ack(fence);
  return id;
}

const row = (page: Page, id: string, type: string) =>
  page.locator(`table.lifecycle tr[data-job-id="${id}"][data-type="${type}"]`);
/** The page has read the stream's end for these filters: what happens next is shown. */
const upToDate = (page: Page, scope: string) =>
  page.getByTestId('lifecycle-status').getByText(`Up to date · ${scope}`).waitFor();

beforeAll(async () => {
  driver = createMemoryDriver();
  before = await completed('report.build', 'reports');
  opened = await openBrowserDashboard({ driver });
  ({ browser, origin } = opened);
}, 60_000);
afterAll(async () => {
  await opened?.close();
  await driver.close();
});

describe('Chromium at the lifecycle page', () => {
  it('shows a job’s active then completed events, newest first, and a queue filter narrows to that queue', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${origin}/`);
      await page.getByRole('link', { name: 'Lifecycle' }).click();
      await upToDate(page, 'every queue and name');

      const { id, fence } = await claimed('email.send', 'mail');
      await row(page, id, 'active').waitFor();
      await driver.ack(fence);
      await row(page, id, 'completed').waitFor();
      const rows = page.locator('table.lifecycle tbody tr');
      expect(await rows.nth(0).getAttribute('data-type')).toBe('completed');
      expect(await rows.nth(1).getAttribute('data-type')).toBe('active');
      expect(await rows.nth(0).textContent()).toMatch(/completed.*email\.send.*mail.*1$/);
      expect(
        await rows
          .getByRole('link', { name: `Job ${id}` })
          .first()
          .getAttribute('href'),
      ).toBe(`/jobs/${id}`);
      // It started at the end: the job completed before the page opened is not shown.
      expect(await page.locator(`tr[data-job-id="${before}"]`).count()).toBe(0);

      await page.getByLabel('Queue').fill('reports');
      await page.getByRole('button', { name: 'Apply' }).click();
      await upToDate(page, 'queue reports');
      const mail = await completed('email.send', 'mail');
      const report = await completed('report.build', 'reports');
      await row(page, report, 'completed').waitFor();
      // The mail job's events came first in the stream: read and left out, not yet to come.
      expect(await page.locator(`tr[data-job-id="${mail}"]`).count()).toBe(0);
      // A new filter starts again from the end: the rows before it are gone.
      expect(await page.locator(`tr[data-job-id="${id}"]`).count()).toBe(0);
    } finally {
      await page.close();
    }
  });

  it('reads from the oldest event kept when asked, and a resume reads on from where the pause left off', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${origin}/lifecycle?from=oldest&name=report.build`);
      await row(page, before, 'completed').waitFor();
      expect(await row(page, before, 'active').count()).toBe(1);

      await page.getByRole('button', { name: 'Pause', exact: true }).click();
      await page.getByTestId('lifecycle-status').getByText('Paused').waitFor();
      const during = await completed('report.build', 'reports');
      await page.getByRole('button', { name: 'Resume', exact: true }).click();
      await row(page, during, 'completed').waitFor();
      expect(await row(page, during, 'active').count()).toBe(1);
    } finally {
      await page.close();
    }
  });
});
