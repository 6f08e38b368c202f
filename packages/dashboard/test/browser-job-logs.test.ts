import type { Driver } from '@berth/core';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobLogsResponse } from '../src/index.js';
import { launchChromium } from './support/browser.js';
import { type OpenedDriver, openRedis } from './support/drivers.js';
import { getApi, startDashboard, type TestDashboard } from './support/server.js';

let opened: OpenedDriver;
let driver: Driver;
let served: TestDashboard;
let scoped: TestDashboard;
let browser: Browser;
const ids: Record<string, string> = {};

/** A job of `tenantId` that logged `messages` on its first attempt and then completed. */
async function logged(tenantId: string, messages: readonly string[]): Promise<string> {
  const queue = `logs-${tenantId}`;
  const { id } = await driver.enqueue({ name: 'import.csv', queue, tenantId });
  const [job] = await driver.claim({ queues: [queue], workerId: 'w', visibilityTimeoutMs: 60_000 });
  if (job === undefined) throw new Error('nothing claimed');
  const fence = { jobId: id, workerId: 'w', claim: job.claim };
  const at = driver.clock.now();
  await driver.logs.append(fence, {
    from: 0,
    lines: messages.map((message, index) => ({
      at: at + index,
      level: index === messages.length - 1 ? ('error' as const) : ('info' as const),
      message,
    })),
  });
  await driver.ack(fence);
  return id;
}

beforeAll(async () => {
  opened = await openRedis();
  driver = opened.driver;
  ids.acme = await logged('acme', [
    'importing 3 rows',
    '<img src=x onerror="window.pwned=1"> is text',
    'row 3 failed',
  ]);
  ids.globex = await logged('globex', ['secret line']);
  served = await startDashboard({ driver });
  scoped = await startDashboard({
    driver,
    tenant: (request) => String(request.headers['x-tenant'] ?? ''),
  });
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await served?.close();
  await scoped?.close();
  await opened?.dispose();
});

describe('job logs on the dashboard', () => {
  it('the job page lists the job’s log lines in order, with attempt and level, as text', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${served.base}/jobs/${ids.acme}`);
      const list = page.getByRole('list', { name: 'Log lines' });
      await list.waitFor();
      const items = list.getByRole('listitem');
      expect(await items.count()).toBe(3);
      expect(await items.nth(0).textContent()).toMatch(
        /#1\s*attempt 1[\s\S]*info\s*importing 3 rows/,
      );
      expect(await items.nth(1).textContent()).toContain(
        '<img src=x onerror="window.pwned=1"> is text',
      );
      expect(await items.nth(2).getAttribute('class')).toContain('log-error');
      expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
    } finally {
      await page.close();
    }
  });

  it('GET /jobs/:id/logs answers the lines; a tenant-scoped dashboard answers another tenant’s job JOB_NOT_FOUND', async () => {
    const all = await getApi<JobLogsResponse>(served.base, `/jobs/${ids.acme}/logs`);
    expect(all.status).toBe(200);
    expect(all.body.dropped).toBe(0);
    expect(all.body.lines.map((line) => [line.seq, line.attempt, line.level])).toEqual([
      [1, 1, 'info'],
      [2, 1, 'info'],
      [3, 1, 'error'],
    ]);
    const own = await getApi<JobLogsResponse>(scoped.base, `/jobs/${ids.acme}/logs`, {
      'x-tenant': 'acme',
    });
    expect(own.body.lines).toHaveLength(3);
    const other = await getApi<{ error: { code: string } }>(
      scoped.base,
      `/jobs/${ids.globex}/logs`,
      { 'x-tenant': 'acme' },
    );
    expect([other.status, other.body.error.code]).toEqual([404, 'JOB_NOT_FOUND']);
  });
});
