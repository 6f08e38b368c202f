import { createManualClock, type Driver } from '@berth/core';
import { createMemoryDriver } from '@berth/driver-memory';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser.js';
import { type Seeded, seedEveryState } from './support/seed.js';
import { startDashboard, type TestDashboard } from './support/server.js';

/** Every time the seed writes is this instant: the manual clock does not move while seeding. */
const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);
const ISO = new Date(T0).toISOString();
/** T0 as a browser in Tokyo shows it. */
const TOKYO = '2026-06-01 21:00:00 UTC+09:00';
/** The browser's own clock decides the relative part: only its form is asserted. */
const RELATIVE = /^\((now|\d+ (s|min|h|d) ago|in \d+ (s|min|h|d))\)$/;

let driver: Driver;
let seeded: Seeded;
let served: TestDashboard;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  const clock = createManualClock(T0);
  driver = createMemoryDriver({ clock });
  seeded = await seedEveryState(driver);
  // The seed's ready jobs have waited 7 minutes: the overview lists their names as stale.
  await clock.advance(7 * 60_000);
  served = await startDashboard({ driver, refreshMs: 60_000, staleReadyAfterMs: 60_000 });
  browser = await launchChromium();
  context = await browser.newContext({ timezoneId: 'Asia/Tokyo' });
  page = await context.newPage();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await served.close();
  await driver.close();
});

/** Each `<time>` in `scope` with the relative text beside it. */
async function shownTimes(scope: Locator) {
  return scope.locator('.instant').evaluateAll((nodes) =>
    nodes.map((node) => ({
      datetime: node.querySelector('time')?.getAttribute('datetime') ?? '',
      absolute: node.querySelector('time')?.textContent ?? '',
      zone: node.querySelector('time')?.getAttribute('title') ?? '',
      relative: node.querySelector('.relative')?.textContent ?? '',
    })),
  );
}

function expectT0(times: Awaited<ReturnType<typeof shownTimes>>, count: number) {
  expect(times).toHaveLength(count);
  for (const time of times) {
    expect(time).toMatchObject({ datetime: ISO, absolute: TOKYO });
    expect(time.zone).toMatch(/^Asia\/Tokyo · /);
    expect(time.relative).toMatch(RELATIVE);
  }
}

describe('Chromium in Tokyo: absolute times with the relative beside them', () => {
  it('jobs table: each Created cell is a <time> of the instant, in the browser’s zone, then how long ago', async () => {
    await page.goto(`${served.base}/jobs?state=dead`);
    await page.locator('tbody tr[data-job-id]').first().waitFor();
    const rows = await page.locator('tbody tr[data-job-id]').count();
    expectT0(await shownTimes(page.locator('tbody')), rows);
    await page
      .getByTestId('time-zone-note')
      .getByText('Times are shown in Asia/Tokyo (UTC+09:00)')
      .waitFor();
  });

  it('job page, its steps timeline and its attempt history', async () => {
    await page.goto(`${served.base}/jobs/${seeded.withSteps}`);
    await page.getByRole('heading', { level: 1, name: /invoice\.charge/ }).waitFor();
    // Created, updated, run at, finished.
    expectT0(await shownTimes(page.locator('dl.facts')), 4);
    // Two steps, each started and updated.
    expectT0(await shownTimes(page.locator('ol.timeline:not(.attempts)')), 4);
    // Its one ended attempt, claimed.
    expectT0(await shownTimes(page.locator('ol.timeline.attempts')), 1);
  });

  it('dead-letter groups: first and last seen', async () => {
    await page.goto(`${served.base}/dead-letters`);
    await page.getByRole('heading', { level: 1, name: 'Dead letters' }).waitFor();
    await page.locator('.instant').first().waitFor();
    const times = await shownTimes(page.locator('main'));
    expect(times.length).toBeGreaterThanOrEqual(4);
    expectT0(times, times.length);
  });

  it('stale names: how long the oldest ready job waited and since when', async () => {
    await page.goto(`${served.base}/`);
    const section = page.getByRole('region', { name: /^Ready jobs no worker ran for over/ });
    await section.waitFor();
    const ages = await section.locator('.age').evaluateAll((nodes) =>
      nodes.map((node) => ({
        text: node.textContent ?? '',
        datetime: node.querySelector('time')?.getAttribute('datetime') ?? '',
      })),
    );
    expect(ages.length).toBeGreaterThan(0);
    for (const age of ages) {
      expect(age).toEqual({ text: `7 min (since ${TOKYO})`, datetime: ISO });
    }
  });
});
