import { createServer } from 'node:http';
import type { Driver } from '@berth/core';
import { createMemoryDriver } from '@berth/driver-memory';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDashboard, type DashboardHandler } from '../src/index.js';
import { launchChromium } from './support/browser.js';
import { closeServer, listen } from './support/server.js';

let browser: Browser;
let driver: Driver;
let page: Page;
const opened: { dashboard: DashboardHandler; server: ReturnType<typeof createServer> }[] = [];

/** A dashboard over `driver` on a port of its own; closed after the case. */
async function serve(readOnly = false): Promise<string> {
  const dashboard = createDashboard({ driver, readOnly });
  const server = createServer(dashboard);
  opened.push({ dashboard, server });
  return listen(server);
}

/** Enqueues a job of `queue` and claims it: answers its fence. */
async function claimed(queue: string, name = 'email.send') {
  const { id } = await driver.enqueue({ name, queue, maxAttempts: 1 });
  const [job] = await driver.claim({
    queues: [queue],
    workerId: 'w',
    visibilityTimeoutMs: 600_000,
  });
  if (job?.id !== id) throw new Error(`claimed ${job?.id}, not ${id}`);
  return { jobId: id, workerId: 'w', claim: job.claim };
}

async function dead(queue: string): Promise<string> {
  const fence = await claimed(queue);
  await driver.nack(fence, { error: { message: 'mailbox full' }, final: true });
  return fence.jobId;
}

async function failed(queue: string): Promise<string> {
  const fence = await claimed(queue);
  await driver.nack(fence, { error: { message: 'bounced' }, final: true, deadLetter: false });
  return fence.jobId;
}

/** Opens the jobs table filtered to `queue` and waits for its `rows` rows. */
async function table(origin: string, queue: string, rows: number): Promise<void> {
  await page.goto(`${origin}/jobs?queue=${queue}`);
  await page.waitForFunction(
    (count) => document.querySelectorAll('table.jobs tbody tr[data-job-id]').length === count,
    rows,
  );
}

/** Confirms the open dialog after checking its title, then waits for the report. */
async function confirmAndReport(title: string, button: string): Promise<string> {
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('heading', { name: title }).waitFor();
  await dialog.getByRole('button', { name: button, exact: true }).click();
  const report = page.getByTestId('bulk-report');
  await report.waitFor();
  return (await report.locator('.notice').textContent()) ?? '';
}

beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  driver = createMemoryDriver();
  page = await browser.newPage();
});
afterEach(async () => {
  await page.close();
  for (const { dashboard, server } of opened.splice(0)) {
    dashboard.close();
    await closeServer(server);
  }
  await driver.close();
});

describe('Chromium at the jobs table, with jobs ticked', () => {
  it('deletes every job of the page but the running one, after a confirmation that names how many, and says so per outcome', async () => {
    const gone = [await dead('mail'), await dead('mail'), await dead('mail')];
    const busy = (await claimed('mail', 'report.build')).jobId;
    const origin = await serve();
    await table(origin, 'mail', 4);
    const bulk = page.getByRole('group', { name: 'Selected jobs' });
    expect(await bulk.getByRole('button', { name: 'Delete selected' }).isDisabled()).toBe(true);
    await page.getByLabel('Select every job on this page').check();
    await bulk.getByText('4 jobs selected').waitFor();
    await bulk.getByRole('button', { name: 'Delete selected' }).click();
    const summary = await confirmAndReport('Delete 4 jobs?', 'Delete 4 jobs');
    expect(summary).toBe('Delete: 3 deleted, 1 refused: running.');
    const refused = page.getByTestId('bulk-report').locator('tbody tr');
    expect(await refused.getAttribute('data-job-id')).toBe(busy);
    expect(await refused.textContent()).toContain('JOB_NOT_DELETABLE');
    for (const id of gone) expect(await driver.get(id)).toBeUndefined();
    expect((await driver.get(busy))?.state).toBe('running');
    // The table reloads without the deleted rows, and nothing stays ticked.
    await page.waitForFunction(
      () => document.querySelectorAll('table.jobs tbody tr[data-job-id]').length === 1,
    );
    await bulk.getByText('Tick jobs to act on them').waitFor();
  });

  it('retries the ticked failed jobs and cancels the ticked ready one', async () => {
    const [first, second] = [await failed('billing'), await failed('billing')];
    const ready = (await driver.enqueue({ name: 'email.send', queue: 'billing' })).id;
    const origin = await serve();
    await table(origin, 'billing', 3);
    await page.getByLabel(`Select job ${first}`).check();
    await page.getByLabel(`Select job ${second}`).check();
    await page.getByRole('button', { name: 'Retry selected' }).click();
    expect(await confirmAndReport('Retry 2 jobs?', 'Retry 2 jobs')).toBe('Retry: 2 requeued.');
    expect((await driver.get(first))?.state).toBe('ready');
    expect((await driver.get(second))?.state).toBe('ready');

    await page.getByLabel(`Select job ${ready}`).check();
    await page.getByRole('button', { name: 'Cancel selected' }).click();
    expect(await confirmAndReport('Cancel 1 job?', 'Cancel 1 job')).toBe('Cancel: 1 cancelled.');
    expect((await driver.get(ready))?.state).toBe('cancelled');
  });

  it('a read-only dashboard offers no ticks and no bulk actions', async () => {
    await dead('mail');
    const origin = await serve(true);
    await table(origin, 'mail', 1);
    expect(await page.getByRole('checkbox').count()).toBe(0);
    expect(await page.getByRole('button', { name: /selected$/ }).count()).toBe(0);
  });
});

describe('Chromium at a job page', () => {
  it('deletes the job after confirming, then says it is gone; a running job offers no Delete', async () => {
    const id = await dead('mail');
    const busy = (await claimed('mail', 'report.build')).jobId;
    const origin = await serve();
    await page.goto(`${origin}/jobs/${id}`);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Delete this job?' }).waitFor();
    await dialog.getByRole('button', { name: 'Delete job', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Job deleted' }).waitFor();
    expect(await page.getByRole('status').textContent()).toContain('it was dead');
    expect(await driver.get(id)).toBeUndefined();

    await page.goto(`${origin}/jobs/${busy}`);
    await page.getByRole('button', { name: 'Cancel', exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Delete', exact: true }).count()).toBe(0);
  });
});
