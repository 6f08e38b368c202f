import { createManualClock, type Driver } from '@berth/core';
import { createMemoryDriver } from '@berth/driver-memory';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PAYLOAD_SCAN } from '../src/api/payload-search.js';
import { launchChromium } from './support/browser.js';
import { startDashboard, type TestDashboard } from './support/server.js';

const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);
/** More jobs than one search request reads. */
const BACKLOG = MAX_PAYLOAD_SCAN + 200;
let driver: Driver;
let served: TestDashboard;
let browser: Browser;
const opened: TestDashboard[] = [];
/** The jobs of user 42 (one in 300), newest first. */
let user42: string[] = [];

beforeAll(async () => {
  driver = createMemoryDriver({ clock: createManualClock(T0) });
  const made: string[] = [];
  for (let start = 0; start < BACKLOG; start += 500) {
    const batch = await driver.enqueueMany(
      Array.from({ length: Math.min(500, BACKLOG - start) }, (_, offset) => {
        const seq = start + offset;
        return {
          name: 'email.send',
          queue: 'mail',
          payload: { user: { id: seq % 300 === 0 ? 42 : 1_000 + seq }, seq },
        };
      }),
    );
    made.push(...batch.map((job) => job.id));
  }
  user42 = made.filter((_, seq) => seq % 300 === 0).reverse();
  served = await startDashboard({ driver, refreshMs: 60_000 });
  opened.push(served);
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  for (const dashboard of opened) await dashboard.close();
  await driver.close();
});

async function withPage<T>(run: (page: Page) => Promise<T>): Promise<T> {
  const page = await browser.newPage();
  try {
    return await run(page);
  } finally {
    await page.close();
  }
}

const rowIds = (page: Page) =>
  page
    .locator('tbody tr[data-job-id]')
    .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-job-id') ?? ''));

describe('Chromium: add a job', () => {
  it('enqueues the form’s job and links to it', async () => {
    await withPage(async (page) => {
      await page.goto(`${served.base}/`);
      await page.getByRole('link', { name: 'Add a job' }).click();
      await page.getByRole('heading', { level: 1, name: 'Add a job' }).waitFor();
      await page.getByLabel('Name').fill('invoice.send');
      await page.getByLabel('Queue').fill('billing');
      await page.getByLabel('Payload (JSON)').fill('{"invoice": "inv_7", "user": {"id": 7}}');
      await page.getByLabel('Delay').fill('1h');
      await page.getByLabel('Priority').fill('3');
      await page.getByLabel('Max attempts').fill('5');
      await page.getByLabel('Idempotency key').fill('inv_7');
      await page.getByRole('button', { name: 'Enqueue' }).click();
      const outcome = page.getByTestId('enqueue-outcome');
      await outcome.waitFor();
      expect(await outcome.textContent()).toMatch(
        /^Enqueued invoice\.send [0-9a-f-]{36} on queue billing: delayed, max attempts 5\.$/,
      );
      const [job] = (await driver.list({ name: 'invoice.send' })).jobs;
      expect(job).toMatchObject({
        queue: 'billing',
        payload: { invoice: 'inv_7', user: { id: 7 } },
        runAt: T0 + 3_600_000,
        priority: 3,
        maxAttempts: 5,
        idempotencyKey: 'inv_7',
      });
      await outcome.getByRole('link').click();
      await page.getByRole('heading', { level: 1, name: /invoice\.send/ }).waitFor();
      expect(page.url()).toBe(`${served.base}/jobs/${job?.id}`);
    });
  });

  it('shows the refusal’s code, message and fix for a payload that is not JSON, and adds nothing', async () => {
    await withPage(async (page) => {
      await page.goto(`${served.base}/enqueue`);
      await page.getByLabel('Name').fill('broken.payload');
      await page.getByLabel('Payload (JSON)').fill('{"to": ada}');
      await page.getByRole('button', { name: 'Enqueue' }).click();
      const alert = page.getByRole('alert');
      await alert.waitFor();
      expect(await alert.textContent()).toMatch(
        /^JOB_INVALID payload is not JSON: .+Correct the value the message names and send the request again\.$/,
      );
      expect((await driver.list({ name: 'broken.payload' })).jobs).toEqual([]);
    });
  });

  it('a tenant-scoped dashboard enqueues for its tenant, with no tenant field to change it', async () => {
    const scoped = await startDashboard({ driver, tenant: () => 'acme', refreshMs: 60_000 });
    opened.push(scoped);
    await withPage(async (page) => {
      await page.goto(`${scoped.base}/enqueue`);
      await page.getByText('as berth enqueue does, for tenant acme').waitFor();
      expect(await page.getByLabel('Tenant').count()).toBe(0);
      await page.getByLabel('Name').fill('acme.report');
      await page.getByRole('button', { name: 'Enqueue' }).click();
      await page.getByTestId('enqueue-outcome').waitFor();
      const listed = await driver.list({ name: 'acme.report' });
      expect(listed.jobs.map((job) => job.tenantId)).toEqual(['acme']);
    });
  });

  it('is not offered by a read-only dashboard', async () => {
    const readOnly = await startDashboard({ driver, readOnly: true, refreshMs: 60_000 });
    opened.push(readOnly);
    await withPage(async (page) => {
      await page.goto(`${readOnly.base}/enqueue`);
      await page.getByText('This dashboard is read-only: it adds no jobs.').waitFor();
      expect(await page.getByRole('link', { name: 'Add a job' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Enqueue' }).count()).toBe(0);
    });
  });
});

describe('Chromium: search payloads by a JSON path', () => {
  it('scans a bounded window, says how many it read and matched, and continues with older jobs', async () => {
    await withPage(async (page) => {
      await page.goto(`${served.base}/jobs?queue=mail`);
      await page.locator('tbody tr[data-job-id]').first().waitFor();
      await page.getByLabel('Payload (JSON path)').fill('$.user.id == 42');
      await page.getByRole('button', { name: 'Apply' }).click();
      const window = page.getByTestId('search-window');
      await window.getByText(/^Scanned the newest/).waitFor();
      expect(await window.textContent()).toBe(
        'Scanned the newest 1,000 jobs: 3 match — continue with older jobs',
      );
      // seq 1199..200 were read: user 42 is at 900, 600 and 300.
      expect(await rowIds(page)).toEqual(user42.slice(0, 3));
      expect(await page.locator('td.match-value').allTextContents()).toEqual(['42', '42', '42']);
      expect(new URL(page.url()).searchParams.get('queue')).toBe('mail');

      await window.getByRole('link', { name: 'continue with older jobs' }).click();
      await window.getByText(/^Scanned 200 older jobs/).waitFor();
      expect(await window.textContent()).toBe(
        'Scanned 200 older jobs: 1 matches; no older jobs to scan.',
      );
      expect(await rowIds(page)).toEqual(user42.slice(3));
      await page.getByRole('link', { name: 'Back to newest' }).waitFor();
    });
  });

  it('shows a bad path’s message and fix', async () => {
    await withPage(async (page) => {
      await page.goto(`${served.base}/jobs?${new URLSearchParams({ where: '$.user.id = 42' })}`);
      const alert = page.getByRole('alert');
      await alert.waitFor();
      expect(await alert.textContent()).toContain(
        'PAYLOAD_PATH_INVALID where: expected an operator (== != < <= > >=) after the path, found "= 42" (at character 11)',
      );
      expect(await page.getByLabel('Payload (JSON path)').inputValue()).toBe('$.user.id = 42');
    });
  });
});
