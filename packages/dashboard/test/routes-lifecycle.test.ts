import { createManualClock, type Driver } from '@berth/core';
import { createMemoryDriver } from '@berth/driver-memory';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LifecycleEndResponse, LifecycleResponse } from '../src/index.js';
import { getApi, startDashboard, type TestDashboard } from './support/server.js';

const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);
const W = 'w';
let driver: Driver;
let served: TestDashboard;

interface Problem {
  readonly error: { readonly code: string; readonly message: string };
}

/** Enqueues one job, claims it and acks it: an `active` then a `completed` event. */
async function runToCompletion(name: string, queue: string, tenantId?: string): Promise<string> {
  const { id } = await driver.enqueue({ name, queue, ...(tenantId ? { tenantId } : {}) });
  const [job] = await driver.claim({ queues: [queue], workerId: W, visibilityTimeoutMs: 60_000 });
  if (job?.id !== id) throw new Error(`expected to claim ${id}`);
  await driver.ack({ jobId: id, workerId: W, claim: job.claim });
  return id;
}

const read = (path: string, headers: Record<string, string> = {}) =>
  getApi<LifecycleResponse>(served.base, path, headers);
const summary = (page: LifecycleResponse) =>
  page.events.map((event) => [event.type, event.jobId, event.queue, event.name]);

beforeEach(async () => {
  driver = createMemoryDriver({ clock: createManualClock(T0) });
  served = await startDashboard({ driver });
});
afterEach(async () => {
  await served.close();
  await driver.close();
});

describe('GET /api/lifecycle', () => {
  it('answers every kept event in stream order, with next and caughtUp', async () => {
    const mail = await runToCompletion('email.send', 'mail');
    const bill = await runToCompletion('invoice.charge', 'billing');
    const { status, body } = await read('/lifecycle');
    expect(status).toBe(200);
    expect(summary(body)).toEqual([
      ['active', mail, 'mail', 'email.send'],
      ['completed', mail, 'mail', 'email.send'],
      ['active', bill, 'billing', 'invoice.charge'],
      ['completed', bill, 'billing', 'invoice.charge'],
    ]);
    expect(body.events[0]).toMatchObject({ attempt: 1, at: T0 });
    expect(body.caughtUp).toBe(true);
    expect(body.next).toBe(body.events[3]?.position);
    const after = await read(`/lifecycle?after=${encodeURIComponent(body.next ?? '')}`);
    expect(after.body.events).toEqual([]);
    expect(after.body.caughtUp).toBe(true);
  });

  it('narrows by queue, by name and by job id', async () => {
    const mail = await runToCompletion('email.send', 'mail');
    const bill = await runToCompletion('invoice.charge', 'billing');
    const other = await runToCompletion('email.digest', 'mail');
    expect(summary((await read('/lifecycle?queue=billing')).body).map((row) => row[1])).toEqual([
      bill,
      bill,
    ]);
    expect(summary((await read('/lifecycle?name=email.digest')).body).map((row) => row[1])).toEqual(
      [other, other],
    );
    const byJob = await read(`/lifecycle?job=${mail}`);
    expect(byJob.body.events.map((event) => [event.type, event.jobId])).toEqual([
      ['active', mail],
      ['completed', mail],
    ]);
    const none = await read('/lifecycle?queue=mail&name=invoice.charge');
    expect([none.body.events, none.body.caughtUp]).toEqual([[], true]);
  });

  it('pages through the stream by passing each answer’s next as after', async () => {
    const first = await runToCompletion('email.send', 'mail');
    const second = await runToCompletion('email.send', 'mail');
    const seen: string[] = [];
    let after = '';
    for (let reads = 0; reads < 10; reads += 1) {
      const query = after === '' ? '' : `&after=${encodeURIComponent(after)}`;
      const { body } = await read(`/lifecycle?limit=3${query}`);
      expect(body.events.length).toBeLessThanOrEqual(3);
      seen.push(...body.events.map((event) => `${event.type}:${event.jobId}`));
      after = body.next ?? '';
      if (body.caughtUp) break;
    }
    expect(seen).toEqual([
      `active:${first}`,
      `completed:${first}`,
      `active:${second}`,
      `completed:${second}`,
    ]);
  });

  it('refuses a bad limit and an unknown position JOB_PAGE_INVALID, a job id that is not one JOB_INVALID', async () => {
    await runToCompletion('email.send', 'mail');
    for (const limit of ['0', '201', 'abc', '1.5', '-1']) {
      const answer = await getApi<Problem>(served.base, `/lifecycle?limit=${limit}`);
      expect([limit, answer.status, answer.body.error.code]).toEqual([
        limit,
        400,
        'JOB_PAGE_INVALID',
      ]);
    }
    expect((await read('/lifecycle?limit=200')).status).toBe(200);
    for (const after of ['not-a-position', '999999']) {
      const answer = await getApi<Problem>(served.base, `/lifecycle?after=${after}`);
      expect([after, answer.status, answer.body.error.code]).toEqual([
        after,
        400,
        'JOB_PAGE_INVALID',
      ]);
    }
    const job = await getApi<Problem>(served.base, '/lifecycle?job=not-a-uuid');
    expect([job.status, job.body.error.code]).toEqual([400, 'JOB_INVALID']);
  });
});

describe('GET /api/lifecycle/end', () => {
  it('answers null for an empty stream, then the newest position: reading after it answers only later events', async () => {
    const empty = await getApi<LifecycleEndResponse>(served.base, '/lifecycle/end');
    expect([empty.status, empty.body]).toEqual([200, { end: null }]);
    await runToCompletion('email.send', 'mail');
    const { body } = await getApi<LifecycleEndResponse>(served.base, '/lifecycle/end');
    const all = await read('/lifecycle');
    expect(body.end).toBe(all.body.events.at(-1)?.position);
    const later = await runToCompletion('invoice.charge', 'billing');
    const page = await read(`/lifecycle?after=${encodeURIComponent(body.end ?? '')}`);
    expect(page.body.events.map((event) => [event.type, event.jobId])).toEqual([
      ['active', later],
      ['completed', later],
    ]);
  });
});

describe('GET /api/lifecycle on a tenant-scoped dashboard', () => {
  it('answers only the tenant’s jobs’ events, ignoring a tenant filter that names another', async () => {
    const acme = await runToCompletion('email.send', 'mail', 'acme');
    const globex = await runToCompletion('email.send', 'mail', 'globex');
    await runToCompletion('email.send', 'mail');
    const scoped = await startDashboard({
      driver,
      tenant: (request) => String(request.headers['x-tenant'] ?? ''),
    });
    try {
      const asAcme = { 'x-tenant': 'acme' };
      for (const path of ['/lifecycle', '/lifecycle?tenant=globex', `/lifecycle?job=${globex}`]) {
        const { status, body } = await getApi<LifecycleResponse>(scoped.base, path, asAcme);
        expect(status).toBe(200);
        expect(body.events.every((event) => event.tenantId === 'acme')).toBe(true);
        expect(body.events.map((event) => event.jobId)).toEqual(
          path.includes('job=') ? [] : [acme, acme],
        );
      }
    } finally {
      await scoped.close();
    }
    // Unscoped, the tenant filter narrows to the tenant named.
    const filtered = await read('/lifecycle?tenant=globex');
    expect(filtered.body.events.map((event) => event.jobId)).toEqual([globex, globex]);
  });
});
