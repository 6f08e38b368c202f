import { expect, it } from 'vitest';
import { distinguishingTails } from '../../ui/src/id-tail.js';
import type { E2e } from './e2e-suite.js';

/** Submits the header's id search with `text`. */
async function search(e2e: E2e, text: string) {
  const { page } = e2e;
  await page.keyboard.press('/');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}

/** The id column and the id search, over a driver whose ids are time-ordered (pg). */
export function e2eIdCases(e2e: () => E2e): void {
  it('jobs table: the id column shows the end that tells each id apart; Copy copies the whole id', async () => {
    const { page, full, shot } = e2e();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: full.origin,
    });
    await page.goto(`${full.base}/jobs`);
    const links = page.locator('tbody tr[data-job-id] a[aria-label^="Job "]');
    await links.first().waitFor();
    const rows = await page
      .locator('tbody tr[data-job-id]')
      .evaluateAll((items) =>
        items.map((row) => [
          row.getAttribute('data-job-id') ?? '',
          row.querySelector('a')?.textContent ?? '',
        ]),
      );
    const ids = rows.map(([id]) => id ?? '');
    // What the column showed before: 8 characters that change once a minute, the same on the
    // rows made in one (two values at most: a seed may cross one change).
    expect(new Set(ids.map((id) => id.slice(0, 8))).size).toBeLessThanOrEqual(2);
    const tails = distinguishingTails(ids);
    expect(rows).toEqual(ids.map((id) => [id, `…${tails.get(id)}`]));
    expect(new Set(rows.map(([, shown]) => shown)).size).toBe(ids.length);
    await shot('jobs-id-column');

    const first = ids[0] ?? '';
    await page.getByRole('button', { name: `Copy id ${first}` }).click();
    await page
      .getByRole('button', { name: `Copy id ${first}` })
      .getByText('Copied')
      .waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first);
  });

  it('id search: a unique end or start opens the job; a shared start lists the candidates; none says so', async () => {
    const { page, full, seeded, driver, shot } = e2e();
    await page.goto(`${full.base}/`);
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();

    await search(e2e(), seeded.running.slice(-8).toUpperCase());
    await page.getByRole('heading', { level: 1, name: /report\.build/ }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/jobs/${seeded.running}`);

    const shared = seeded.running.slice(0, 8);
    const sharing = (await driver.list({ limit: 500 })).jobs.filter((job) =>
      job.id.startsWith(shared),
    );
    expect(sharing.length).toBeGreaterThan(1);
    await search(e2e(), shared);
    const alert = page.getByRole('alert');
    await alert.getByText('ID_AMBIGUOUS').waitFor();
    // The code once, beside the message: never "ID_AMBIGUOUS ID_AMBIGUOUS: ...".
    expect((await alert.textContent())?.match(/ID_AMBIGUOUS/g)).toHaveLength(1);
    const candidates = page.getByTestId('candidates').locator('tbody tr[data-job-id]');
    await candidates.first().waitFor();
    const listed = await candidates.evaluateAll((items) =>
      items.map((row) => row.getAttribute('data-job-id') ?? ''),
    );
    expect(listed).toHaveLength(Math.min(10, sharing.length));
    expect(listed.every((id) => id.startsWith(shared))).toBe(true);
    await shot('find-ambiguous');
    await candidates.first().getByRole('link').click();
    await page.waitForURL(new RegExp(`/jobs/${listed[0]}$`));
    // After a navigation the app moves focus to the page's main element (app.tsx); waitForURL
    // returns at pushState, before that, so a search typed then lost its keys to main.
    const opened = await driver.get(listed[0] ?? '');
    await page.getByRole('heading', { level: 1, name: opened?.name ?? '' }).waitFor();

    const missing = 'zzzzzzzz';
    await search(e2e(), missing);
    await page.getByRole('alert').getByText('JOB_NOT_FOUND').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain(
      `no job has an id that starts or ends with "${missing}"`,
    );
  });
}
