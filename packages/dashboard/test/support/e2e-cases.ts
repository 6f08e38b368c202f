import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { another, CREDENTIALS, type E2e, mustGet } from './e2e-suite.js';
import { HOSTILE_PAYLOAD } from './seed.js';

const rowIds = (page: Page) =>
  page
    .locator('tbody tr[data-job-id]')
    .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-job-id') ?? ''));

/** Waits until the table shows a page whose first row is not `seen` (not while it loads). */
async function firstRowChanges(page: Page, seen: string | undefined) {
  await page.waitForFunction((previous) => {
    const first = document.querySelector('tbody tr[data-job-id]')?.getAttribute('data-job-id');
    return first != null && first !== previous;
  }, seen);
}

/** Opens `path` and waits for the page's heading. */
async function visit(page: Page, url: string, heading: string | RegExp) {
  await page.goto(url);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

/** Confirms the open dialog with its `button`, after checking what it asks. */
async function confirm(page: Page, title: RegExp, button: string) {
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('heading', { name: title }).waitFor();
  await dialog.getByRole('button', { name: button, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}

export function e2eCases(e2e: () => E2e): void {
  it('overview: every queue with its counts by state, as stats() has them', async () => {
    const { page, full, driver, shot } = e2e();
    await visit(page, `${full.base}/`, 'Overview');
    const stats = await driver.stats();
    for (const queue of stats) {
      for (const [state, count] of Object.entries(queue.counts)) {
        if (count === 0) continue;
        await page.getByRole('link', { name: `${count} ${state} in ${queue.queue}` }).waitFor();
      }
    }
    await page.getByRole('img', { name: /All queues: \d+ completed and \d+ failed/ }).waitFor();
    await shot('overview');
  });

  it('jobs: filters by state and pages with keyset cursors, older and back', async () => {
    const { page, full, driver, seeded, shot } = e2e();
    await visit(page, `${full.base}/jobs`, 'Jobs');
    await page.getByLabel('State').selectOption('completed');
    await page.getByLabel('Per page').selectOption('10');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/state=completed&limit=10$/);
    // The filtered page, not the unfiltered one still shown while it loads.
    await page.waitForFunction(() => {
      const rows = [...document.querySelectorAll('tbody tr[data-job-id]')];
      return rows.length === 10 && rows.every((row) => row.textContent?.includes('completed'));
    });
    const first = await rowIds(page);
    const expected = await driver.list({ state: 'completed', limit: 10 });
    expect(first).toEqual(expected.jobs.map((job) => job.id));
    await shot('jobs');
    const pages = [first];
    for (let index = 0; index < 2; index += 1) {
      await page.getByRole('link', { name: 'Older →' }).click();
      await firstRowChanges(page, pages.at(-1)?.[0]);
      pages.push(await rowIds(page));
    }
    expect(new Set(pages.flat())).toEqual(new Set(seeded.completed));
    expect(page.url()).not.toContain('offset');
    await page.getByText('Older →').and(page.locator('[aria-disabled="true"]')).waitFor();
    await page.getByRole('link', { name: '← Newer' }).click();
    await page.waitForURL(/before=/);
    await firstRowChanges(page, pages[2]?.[0]);
    expect(await rowIds(page)).toEqual(pages[1]);
  });

  it('job page: the record, its steps in write order with outputs, the last error with its stack', async () => {
    const { page, full, seeded, shot } = e2e();
    await visit(page, `${full.base}/jobs/${seeded.withSteps}`, /invoice\.charge/);
    const steps = await page
      .locator('[data-step]')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-step')));
    expect(steps).toEqual(['fetch-customer', 'charge-card']);
    await page.getByText('"customer": 7').waitFor();
    // The attempt history holds the same stack, folded: this one is the last error's.
    await page.getByLabel('Last error').getByText('at charge (billing.ts:42:11)').waitFor();
    await page.getByRole('button', { name: 'Retry from here' }).first().waitFor();
    await shot('job');
  });

  it('job page: the attempt history with time, worker and outcome; an error shows its message, its stack folded until opened', async () => {
    const { page, full, seeded, driver, shot } = e2e();
    await visit(page, `${full.base}/jobs/${seeded.withSteps}`, /invoice\.charge/);
    const history = await driver.attempts.list(seeded.withSteps);
    const [record] = history?.records ?? [];
    if (record === undefined) throw new Error('expected one attempt of the seeded job');
    const attempt = page.locator('[data-attempt="1"]');
    await attempt.waitFor();
    expect(await page.locator('[data-attempt]').count()).toBe(1);
    const head = await attempt.locator('.step-head').textContent();
    expect(head).toContain('Attempt 1');
    expect(head).toContain('failed');
    expect(head).toContain(record.workerId);
    expect(await attempt.locator('time').first().getAttribute('datetime')).toBe(
      new Date(record.claimedAt).toISOString(),
    );
    const error = attempt.getByLabel('Error of attempt 1');
    await error.locator('p', { hasText: 'card declined for order 9001 (customer 7)' }).waitFor();
    const stack = error.locator('pre.stack');
    expect(await stack.isVisible()).toBe(false);
    await error.getByText('Stack', { exact: true }).click();
    await stack.waitFor({ state: 'visible' });
    expect(await stack.textContent()).toContain('at charge (billing.ts:42:11)');
    await shot('job-attempts');
  });

  it('retry and cancel from the job page, after a confirmation, change the stored state', async () => {
    const { page, full, driver, seeded } = e2e();
    await visit(page, `${full.base}/jobs/${seeded.failed}`, /email\.bounce/);
    await page.getByRole('button', { name: 'Retry', exact: true }).click();
    await confirm(page, /Retry this job/, 'Retry');
    await page.getByText('Done: the job is ready now.').waitFor();
    expect((await mustGet(driver, seeded.failed)).state).toBe('ready');

    await visit(page, `${full.base}/jobs/${seeded.ready}`, /email\.send/);
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    // Escape backs out, and nothing changes.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect((await mustGet(driver, seeded.ready)).state).toBe('ready');
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await confirm(page, /Cancel this job/, 'Cancel job');
    await page.getByText('Done: the job is cancelled now.').waitFor();
    expect((await mustGet(driver, seeded.ready)).state).toBe('cancelled');
  });

  it('dead letters: grouped by cause; retry group requeues each job and reports per job', async () => {
    const { page, full, driver, seeded, shot } = e2e();
    await visit(page, `${full.base}/dead-letters`, 'Dead letters');
    const groups = page.getByTestId('dead-letter-group');
    await groups.nth(1).waitFor();
    expect(await groups.evaluateAll((items) => items.map((item) => item.dataset.count))).toEqual([
      '3',
      '2',
    ]);
    await page.getByText('card declined for order <n> (customer <n>)').waitFor();
    await shot('dead-letters');
    const timeouts = groups.filter({ hasText: 'UPSTREAM_TIMEOUT' });
    await timeouts.getByRole('button', { name: 'Retry group' }).click();
    await confirm(page, /Retry 2 dead jobs/, 'Retry 2');
    const report = page.getByTestId('group-report');
    await report.getByText('2 requeued').waitFor();
    for (const id of seeded.timedOut) {
      await report.locator(`tr[data-job-id="${id}"]`).getByText('requeued').waitFor();
      expect((await mustGet(driver, id)).state).toBe('ready');
    }
    // The list is read again after the report: the retried group leaves it then, not before.
    await timeouts.first().waitFor({ state: 'detached' });
    expect(await groups.count()).toBe(1);
  });

  it('retry from a step: that step and the ones after it are dropped, the ones before kept', async () => {
    const { page, full, driver, seeded } = e2e();
    await visit(page, `${full.base}/jobs/${seeded.withSteps}`, /invoice\.charge/);
    await page
      .locator('[data-step="charge-card"]')
      .getByRole('button', { name: 'Retry from here' })
      .click();
    await confirm(page, /Retry from step “charge-card”/, 'Retry');
    await page.getByText('Done: the job is ready now.').waitFor();
    const job = await mustGet(driver, seeded.withSteps);
    expect(job.state).toBe('ready');
    expect((await driver.steps.list(job.runId)).map((step) => step.name)).toEqual([
      'fetch-customer',
    ]);
  });

  it('a payload holding <script> is shown as text and runs nothing', async () => {
    const { page, full, seeded } = e2e();
    await visit(page, `${full.base}/jobs/${seeded.hostile}`, /xss\.probe/);
    await page.getByText(HOSTILE_PAYLOAD.html.slice(0, 40)).waitFor();
    expect(await page.evaluate(() => 'berthPwned' in window || '__berthPwned' in window)).toBe(
      false,
    );
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(await page.locator('script').count()).toBe(2);
  });

  it('schedules and events: next slots and the leader; recent events by name', async () => {
    const { page, full, shot } = e2e();
    await visit(page, `${full.base}/schedules`, 'Schedules');
    await page.getByTestId('leader').getByText('scheduler-e2e').waitFor();
    await page.getByRole('rowheader', { name: 'nightly-digest' }).waitFor();
    await shot('schedules');
    await visit(page, `${full.base}/events`, 'Events');
    await page.getByRole('link', { name: 'payment.settled (2)' }).click();
    await page.waitForURL(/name=payment\.settled/);
    await page.getByText('1 live event').or(page.getByText('2 live events')).waitFor();
    await shot('events');
  });

  it('keyboard: / focuses the id search, Enter opens the job', async () => {
    const { page, full, seeded } = e2e();
    await visit(page, `${full.base}/`, 'Overview');
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('job-id-search');
    await page.keyboard.type(seeded.running);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: /report\.build/ }).waitFor();
    await page.getByText('seed-worker').waitFor();
  });

  it('read-only: no action is offered, and a direct POST is refused', async () => {
    const { page, driver, seeded, shot } = e2e();
    const readOnly = await another(e2e(), { readOnly: true });
    const dead = seeded.declined[1] ?? '';
    await visit(page, `${readOnly.base}/jobs/${dead}`, /invoice\.charge/);
    await page.getByTestId('read-only-banner').waitFor();
    expect(await page.getByRole('button', { name: 'Retry', exact: true }).count()).toBe(0);
    await visit(page, `${readOnly.base}/dead-letters`, 'Dead letters');
    await page.getByTestId('dead-letter-group').first().waitFor();
    expect(await page.getByRole('button', { name: 'Retry group' }).count()).toBe(0);
    await shot('read-only');
    const answer = await page.evaluate(async (id) => {
      const config = JSON.parse(document.getElementById('berth-config')?.textContent ?? '{}');
      const response = await fetch(`${config.basePath}/api/jobs/${id}/retry`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-berth-csrf': config.csrf },
        body: '{}',
      });
      return [response.status, (await response.json()).error.code];
    }, dead);
    expect(answer).toEqual([403, 'READ_ONLY']);
    expect((await mustGet(driver, dead)).state).toBe('dead');
  });

  it('auth: an unauthenticated request is refused; the right credentials see the page', async () => {
    const { page } = e2e();
    const guarded = await another(e2e(), { auth: true });
    // Without credentials the browser gives up on the challenge; its request context shows why.
    const refused = await page.request.get(`${guarded.base}/`);
    expect(refused.status()).toBe(401);
    expect(refused.headers()['www-authenticate']).toContain('Basic');
    expect(await refused.text()).not.toContain('berth-config');
    const basic = Buffer.from(`${CREDENTIALS.username}:${CREDENTIALS.password}`).toString('base64');
    await page.setExtraHTTPHeaders({ authorization: `Basic ${basic}` });
    try {
      await visit(page, `${guarded.base}/`, 'Overview');
      expect(await page.getByTestId('loopback-banner').count()).toBe(0);
    } finally {
      await page.setExtraHTTPHeaders({});
    }
  });

  it('phone and dark theme: the page fits a phone screen', async () => {
    const { page, full, shot } = e2e();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: 'dark' });
    try {
      await visit(page, `${full.base}/`, 'Overview');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        390,
      );
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(background).toBe('rgb(13, 17, 23)');
      await shot('phone-dark');
    } finally {
      await page.setViewportSize({ width: 1200, height: 800 });
      await page.emulateMedia({ colorScheme: 'light' });
    }
  });
}
