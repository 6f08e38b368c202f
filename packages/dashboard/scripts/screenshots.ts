import { fileURLToPath } from 'node:url';
import { createManualClock, type Driver } from '@berth/core';
import { createMemoryDriver } from '@berth/driver-memory';
import { serveDashboard } from '../src/index.js';
import { launchChromium } from '../test/support/browser.js';
import { seedEveryState } from '../test/support/seed.js';

// The README's screenshots: a memory driver with an hour of made-up traffic, then the seed the
// browser tests use. Run with `pnpm --filter @berth/dashboard screenshots`.
const MINUTE = 60_000;
const out = fileURLToPath(new URL('../docs/', import.meta.url));
const clock = createManualClock(Date.now() - 50 * MINUTE);
const driver = createMemoryDriver({ clock });
const schedules = [
  { name: 'nightly-digest', cron: '0 3 * * *', job: { name: 'email.digest', queue: 'emails' } },
  { name: 'hourly-invoices', cron: '0 * * * *', job: { name: 'invoice.charge', queue: 'billing' } },
];
const served = await serveDashboard({ driver, schedules });

async function traffic(target: Driver, queue: string, done: number, failed: number) {
  await target.enqueueMany(
    Array.from({ length: done + failed }, () => ({ name: 'work', queue, maxAttempts: 1 })),
  );
  const claimed = await target.claim({
    queues: [queue],
    limit: done + failed,
    workerId: 'demo',
    visibilityTimeoutMs: MINUTE,
  });
  const fences = claimed.map((job) => ({ jobId: job.id, workerId: 'demo', claim: job.claim }));
  await target.ackMany(fences.slice(0, done).map((fence) => ({ fence })));
  await target.nackMany(
    fences.slice(done).map((fence) => ({ fence, error: { message: 'upstream 503' }, final: true })),
  );
}

await fetch(`${served.url}api/overview`);
for (let minute = 0; minute < 48; minute += 1) {
  await clock.advance(MINUTE);
  const wave = Math.round(20 + 15 * Math.sin(minute / 6));
  await traffic(driver, 'emails', wave, minute % 9 === 0 ? 3 : 0);
  await traffic(driver, 'billing', Math.round(wave / 3), minute % 13 === 0 ? 2 : 0);
  await fetch(`${served.url}api/overview`);
}
await driver.purge({ states: ['completed', 'dead'], olderThan: clock.now() + 1 });
await clock.advance(MINUTE);
const seeded = await seedEveryState(driver);
await driver.leases.acquire('berth.scheduler', 'scheduler-6f1c', 30_000);

const browser = await launchChromium();
const page = await browser.newPage({ viewport: { width: 1100, height: 720 } });
const shots: readonly (readonly [string, string])[] = [
  ['overview', ''],
  ['jobs', 'jobs?limit=10'],
  ['job', `jobs/${seeded.withSteps}`],
  ['dead-letters', 'dead-letters'],
  ['schedules', 'schedules'],
  ['events', 'events'],
];
for (const [name, path] of shots) {
  await page.goto(`${served.url}${path}`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${out}${name}.png`, fullPage: true });
}
await page.setViewportSize({ width: 390, height: 760 });
await page.emulateMedia({ colorScheme: 'dark' });
await page.goto(served.url);
await page.getByRole('heading', { level: 1 }).waitFor();
await page.waitForTimeout(300);
await page.screenshot({ path: `${out}phone-dark.png` });
await browser.close();
await served.close();
await driver.close();
console.log(`screenshots written to ${out}`);
