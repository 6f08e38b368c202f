import type { Driver } from '@berth/core';
import { createMemoryDriver } from '@berth/driver-memory';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DASHBOARD_FIXES } from '../src/http/fixes.js';
import {
  getApi,
  openSession,
  postApi,
  startDashboard,
  type TestDashboard,
} from './support/server.js';

interface Refusal {
  readonly error: { readonly code: string; readonly message: string; readonly fix?: string };
}

/** A well-formed id no job has. */
const MISSING = '0190a0b0-0000-7000-8000-000000000000';
let driver: Driver;
const opened: TestDashboard[] = [];

beforeEach(() => {
  driver = createMemoryDriver();
});
afterEach(async () => {
  for (const served of opened.splice(0)) await served.close();
  await driver.close();
});

async function start(scoped: boolean) {
  const served = await startDashboard({
    driver,
    ...(scoped ? { tenant: () => 'acme' } : {}),
  });
  opened.push(served);
  return served;
}

describe('what a refusal says', () => {
  it('error.message is the detail alone: the page prints the code beside it once', async () => {
    const served = await start(false);
    const missing = await getApi<Refusal>(served.base, `/jobs/${MISSING}`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('JOB_NOT_FOUND');
    expect(missing.body.error.message).toBe(`the queue holds no job with id "${MISSING}"`);
    const page = await getApi<Refusal>(served.base, '/jobs?after=forged');
    expect(page.body.error.code).toBe('JOB_PAGE_INVALID');
    expect(page.body.error.message).not.toContain('JOB_PAGE_INVALID');
    // No CLI flags and no next/prev: the dashboard's cursors are after= and before=.
    expect(page.body.error.fix).not.toMatch(/--|next\/prev/);
  });

  it('on a tenant-scoped page, a job not found suggests no --tenant: the scope is fixed', async () => {
    const served = await start(true);
    const missing = await getApi<Refusal>(served.base, `/jobs/${MISSING}`);
    expect(missing.body.error.code).toBe('JOB_NOT_FOUND');
    expect(missing.body.error.fix).not.toContain('--tenant');
    expect(missing.body.error.fix).toContain('tenant acme');
    const session = await openSession(served.base);
    const action = await postApi<Refusal>(served.base, `/jobs/${MISSING}/retry`, session);
    expect(action.body.error.fix).toBe(missing.body.error.fix);
  });

  it('every fix text names what the dashboard has: its pages and buttons, no CLI flags or meta', () => {
    const pages = [
      'Jobs page',
      'job page',
      'Dead letters page',
      'Backfills page',
      'Schedules page',
      'Clear',
    ];
    for (const [code, fix] of Object.entries(DASHBOARD_FIXES)) {
      for (const text of [fix({ tenantId: undefined }), fix({ tenantId: 'acme' })]) {
        expect([code, text]).not.toEqual([
          code,
          expect.stringMatching(/--|meta\.|berth |driver\./),
        ]);
        const named = [...text.matchAll(/the ([A-Z][\w ]*?|job) page/g)].map((m) => `${m[1]} page`);
        for (const page of named) expect(pages).toContain(page);
      }
    }
  });
});
