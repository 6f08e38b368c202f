import { type BackfillRun, backfillControl, createManualClock } from '@berth/core';
import { createMemoryDriver } from '@berth/driver-memory';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserDashboard, openBrowserDashboard } from './support/browser-dashboard.js';
import { startDashboard } from './support/server.js';

// The driver's clock is manual, so the rate the page shows is exact: 500 rows in 10 s.
const clock = createManualClock(Date.UTC(2026, 5, 1, 12));
const driver = createMemoryDriver({ clock });
let run: BackfillRun;
let opened: BrowserDashboard;
let browser: Browser;
let origin: string;

beforeAll(async () => {
  const started = await backfillControl(driver).start('reindex-users');
  await clock.advance(10_000);
  // One committed pass, as the runner would commit it: no worker runs in this test.
  const pass = { jobId: started.jobId, passes: 0, next: { id: 500 }, rows: 500 };
  const change = await driver.backfills.commit(started.runId, pass);
  if (change === undefined) throw new Error('the pass did not commit');
  run = change.run;
  opened = await openBrowserDashboard({ driver });
  ({ browser, origin } = opened);
}, 60_000);
afterAll(async () => {
  await opened?.close();
  await driver.close();
});

describe('Chromium at the backfills page', () => {
  it('shows a run’s progress, pauses it after asking, then resumes it with a new runner job', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${origin}/`);
      await page.getByRole('link', { name: 'Backfills' }).click();
      const row = page.getByRole('row', { name: /^reindex-users/ });
      await row.getByText('running', { exact: true }).waitFor();
      expect(await row.getByTestId('rows-done').textContent()).toBe('500');
      expect(await row.getByTestId('rows-per-second').textContent()).toBe('50');
      expect(await row.getByText('{"id":500}', { exact: true }).count()).toBe(1);

      await row.getByRole('button', { name: `Pause reindex-users ${run.runId}` }).click();
      await page
        .getByRole('dialog', { name: 'Pause backfill “reindex-users”?' })
        .getByRole('button', { name: 'Pause', exact: true })
        .click();
      await row.getByText('paused', { exact: true }).waitFor();
      expect((await driver.backfills.get(run.runId))?.status).toBe('paused');

      await row.getByRole('button', { name: `Resume reindex-users ${run.runId}` }).click();
      await page
        .getByRole('dialog', { name: 'Resume backfill “reindex-users”?' })
        .getByRole('button', { name: 'Resume', exact: true })
        .click();
      await row.getByText('running', { exact: true }).waitFor();
      const resumed = await driver.backfills.get(run.runId);
      expect(resumed).toMatchObject({ status: 'running', cursor: { id: 500 }, rowsDone: 500 });
      expect(resumed?.jobId).not.toBe(run.jobId);
      expect((await driver.get(resumed?.jobId ?? ''))?.state).toBe('ready');
    } finally {
      await page.close();
    }
  });

  it('offers no action in read-only mode, and filters by status', async () => {
    const readOnly = await startDashboard({ driver, readOnly: true });
    const readOnlyOrigin = readOnly.origin;
    const page = await browser.newPage();
    try {
      await page.goto(`${readOnlyOrigin}/backfills`);
      await page.getByRole('row', { name: /^reindex-users/ }).waitFor();
      expect(await page.getByRole('button', { name: /^(Pause|Resume|Cancel run) / }).count()).toBe(
        0,
      );
      await page.getByLabel('Status').selectOption('cancelled');
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.getByText('No backfill runs match.').waitFor();
      expect(new URL(page.url()).search).toBe('?status=cancelled');
    } finally {
      await page.close();
      await readOnly.close();
    }
  });
});
