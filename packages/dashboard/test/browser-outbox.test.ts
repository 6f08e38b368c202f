import { createMemoryDriver } from '@berth/driver-memory';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserDashboard, openBrowserDashboard } from './support/browser-dashboard.js';
import { deadJobRow, memoryOutbox } from './support/outbox.js';

const ROW_A = '0190c1a0-0000-4000-8000-00000000000a';
const ROW_B = '0190c1a0-0000-4000-8000-00000000000b';
const driver = createMemoryDriver();
const { outbox, calls } = memoryOutbox({
  staged: 2,
  dead: [deadJobRow(ROW_A, 'invoice.send'), deadJobRow(ROW_B, 'report.build')],
});
let opened: BrowserDashboard;
let browser: Browser;
let origin: string;

beforeAll(async () => {
  opened = await openBrowserDashboard({ driver, outbox });
  ({ browser, origin } = opened);
}, 60_000);
afterAll(async () => {
  await opened?.close();
  await driver.close();
});

describe('Chromium at the outbox page', () => {
  it('shows what waits and the refused rows; Retry and Discard ask first, then act on that row alone', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${origin}/`);
      await page.getByRole('link', { name: 'Outbox' }).click();
      await page.getByText('2 waiting for a relay, 2 refused by the queue').waitFor();
      const first = page.getByRole('row', { name: /^invoice\.send/ });
      expect(await first.getByText('payload is over the 1 KiB limit').count()).toBe(1);

      await page.getByRole('button', { name: `Retry row ${ROW_A}` }).click();
      await page
        .getByRole('dialog', { name: 'Stage invoice.send again?' })
        .getByRole('button', { name: 'Retry', exact: true })
        .click();
      await page.getByText('invoice.send staged again.').waitFor();
      await page.getByText('3 waiting for a relay, 1 refused by the queue').waitFor();

      await page.getByRole('button', { name: `Discard row ${ROW_B}` }).click();
      await page
        .getByRole('dialog', { name: 'Discard report.build for good?' })
        .getByRole('button', { name: 'Discard', exact: true })
        .click();
      await page.getByText('No dead rows: the queue took every row relayed so far.').waitFor();
      expect(calls).toEqual([`retry ${ROW_A}`, `discard ${ROW_B}`]);
    } finally {
      await page.close();
    }
  });
});
