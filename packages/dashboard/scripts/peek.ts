import { chromium } from 'playwright-core';

// Screenshots of a running dashboard, for looking at it by hand: tsx scripts/peek.ts URL DIR
const [base = 'http://127.0.0.1:4100', dir = '/tmp/shots'] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
page.on('console', (message) => console.log('console:', message.type(), message.text()));
page.on('pageerror', (error) => console.log('pageerror:', error.message));
for (const [name, path] of [
  ['overview', '/'],
  ['jobs', '/jobs'],
  ['dead', '/dead-letters'],
  ['schedules', '/schedules'],
  ['events', '/events'],
]) {
  await page.goto(`${base}${path}`);
  await page.waitForTimeout(700);
  await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
}
await browser.close();
