import { createManualClock, type Driver, type ListRequest } from '@berth/core';
import { createMemoryDriver } from '@berth/driver-memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PAYLOAD_SCAN, PAYLOAD_SEARCH_PAGE } from '../src/api/payload-search.js';
import type { PayloadSearchResponse } from '../src/index.js';
import { getApi, startDashboard, type TestDashboard } from './support/server.js';

interface Refusal {
  readonly error: { readonly code: string; readonly message: string; readonly fix?: string };
}

const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);
/** Jobs the backlog holds: more than one request may read. */
const BACKLOG = MAX_PAYLOAD_SCAN + 250;
let driver: Driver;
let served: TestDashboard;
const listCalls: ListRequest[] = [];
/** user.id 42's jobs, newest first. */
let user42: string[] = [];

beforeAll(async () => {
  const clock = createManualClock(T0);
  const memory = createMemoryDriver({ clock });
  // Counts the list calls the search makes: its cost must not grow with the backlog.
  driver = Object.assign(Object.create(memory) as Driver, {
    list: (request?: ListRequest) => {
      listCalls.push(request ?? {});
      return memory.list(request);
    },
  });
  const made: string[] = [];
  for (let start = 0; start < BACKLOG; start += 500) {
    const batch = await memory.enqueueMany(
      Array.from({ length: Math.min(500, BACKLOG - start) }, (_, offset) => {
        const index = start + offset;
        return {
          name: index % 2 === 0 ? 'email.send' : 'report.build',
          queue: 'work',
          payload: { user: { id: index % 100 === 0 ? 42 : 1_000 + index }, seq: index },
          ...(index === 400 ? { tenantId: 'acme' } : {}),
        };
      }),
    );
    made.push(...batch.map((job) => job.id));
    await clock.advance(1_000);
  }
  user42 = made.filter((_, index) => index % 100 === 0).reverse();
  served = await startDashboard({ driver });
});
afterAll(async () => {
  await served.close();
  await driver.close();
});

const search = <T = PayloadSearchResponse>(query: Record<string, string>) =>
  getApi<T>(served.base, `/payload-search?${new URLSearchParams(query)}`);

describe('GET /api/payload-search', () => {
  it('reads at most MAX_PAYLOAD_SCAN jobs, newest first, and answers the matches with a cursor to go on', async () => {
    listCalls.length = 0;
    const { status, body } = await search({ where: '$.user.id == 42', limit: '100' });
    expect(status).toBe(200);
    expect(body.scanned).toBe(MAX_PAYLOAD_SCAN);
    expect(body.scanLimit).toBe(MAX_PAYLOAD_SCAN);
    expect(listCalls).toHaveLength(MAX_PAYLOAD_SCAN / PAYLOAD_SEARCH_PAGE);
    expect(listCalls.every((call) => (call.limit ?? 0) <= PAYLOAD_SEARCH_PAGE)).toBe(true);
    // The newest 1,000 of 1,250 jobs hold user 42 at seq 1200, 1100, ..., 300.
    expect(body.jobs.map((job) => job.id)).toEqual(user42.slice(0, 10));
    expect(body.jobs[0]).toMatchObject({ name: 'email.send', queue: 'work', value: '42' });
    expect(body.jobs[0]).not.toHaveProperty('payload');
    expect(body.next).toBeTypeOf('string');

    const rest = await search({ where: '$.user.id == 42', limit: '100', after: body.next ?? '' });
    expect(rest.body.scanned).toBe(BACKLOG - MAX_PAYLOAD_SCAN);
    expect(rest.body.jobs.map((job) => job.id)).toEqual(user42.slice(10));
    expect(rest.body).not.toHaveProperty('next');
  });

  it('stops between pages once it has `limit` matches', async () => {
    listCalls.length = 0;
    const { body } = await search({ where: '$.user.id == 42', limit: '2' });
    expect(body.jobs.map((job) => job.id)).toEqual(user42.slice(0, 2));
    // 1200 and 1100 are in the first two pages of 100 (seq 1249..1050).
    expect(body.scanned).toBe(2 * PAYLOAD_SEARCH_PAGE);
    expect(listCalls).toHaveLength(2);
    expect(body.next).toBeTypeOf('string');
  });

  it('takes a smaller scan bound, and the jobs table’s filters', async () => {
    // One page of 30, read whole: all its matches come back, past the 25 asked for.
    const small = await search({ where: '$.seq', scan: '30' });
    expect([small.body.scanned, small.body.jobs.length, small.body.scanLimit]).toEqual([
      30, 30, 30,
    ]);
    const named = await search({ where: '$.user.id == 42', name: 'report.build' });
    // user 42's jobs are all even, so email.send: none of report.build's match.
    expect(named.body.jobs).toEqual([]);
    // Only report.build's jobs are read: half the backlog, all of them, so no cursor.
    expect([named.body.scanned, named.body.next]).toEqual([BACKLOG / 2, undefined]);
    const tenant = await search({ where: '$.seq == 400', tenant: 'acme' });
    expect(tenant.body.jobs.map((job) => job.tenantId)).toEqual(['acme']);
    expect(tenant.body.scanned).toBe(1);
    const none = await search({ where: '$.seq', state: 'dead' });
    expect([none.body.scanned, none.body.jobs, none.body.next]).toEqual([0, [], undefined]);
  });

  it('answers a bad path with 400 PAYLOAD_PATH_INVALID saying what and where', async () => {
    const bad = await search<Refusal>({ where: '$.user.id = 42' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('PAYLOAD_PATH_INVALID');
    expect(bad.body.error.message).toBe(
      'where: expected an operator (== != < <= > >=) after the path, found "= 42" (at character 11)',
    );
    expect(bad.body.error.fix).toContain('$.user.id == 42');
    const missing = await search<Refusal>({});
    expect([missing.status, missing.body.error.code]).toEqual([400, 'PAYLOAD_PATH_INVALID']);
    const scan = await search<Refusal>({ where: '$', scan: String(MAX_PAYLOAD_SCAN + 1) });
    expect([scan.status, scan.body.error.code]).toEqual([400, 'JOB_INVALID']);
  });

  it('a tenant-scoped dashboard searches only its tenant’s jobs, whatever tenant is asked for', async () => {
    const scoped = await startDashboard({ driver, tenant: () => 'acme' });
    try {
      const { body } = await getApi<PayloadSearchResponse>(
        scoped.base,
        `/payload-search?${new URLSearchParams({ where: '$.seq', tenant: 'globex' })}`,
      );
      expect(body.jobs.map((job) => [job.tenantId, job.value])).toEqual([['acme', '400']]);
      expect(body.scanned).toBe(1);
    } finally {
      await scoped.close();
    }
  });
});
