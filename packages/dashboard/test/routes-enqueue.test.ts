import { createManualClock, type Driver } from '@berth/core';
import { createMemoryDriver } from '@berth/driver-memory';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EnqueueResponse } from '../src/index.js';
import { mustGet } from './support/seed.js';
import {
  openSession,
  postApi,
  type Session,
  startDashboard,
  type TestDashboard,
} from './support/server.js';

const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);
interface Refusal {
  readonly error: { readonly code: string; readonly message: string; readonly fix?: string };
}

let driver: Driver;
let served: TestDashboard;
let session: Session;
const opened: TestDashboard[] = [];

beforeEach(async () => {
  driver = createMemoryDriver({ clock: createManualClock(T0) });
  served = await startDashboard({ driver });
  opened.push(served);
  session = await openSession(served.base);
});
afterEach(async () => {
  for (const dashboard of opened.splice(0)) await dashboard.close();
  await driver.close();
});

const enqueue = <T = EnqueueResponse>(body: unknown, headers: Record<string, string> = {}) =>
  postApi<T>(served.base, '/jobs', session, body, headers);

describe('POST /api/jobs (add a job)', () => {
  it('enqueues through the driver with every option the form offers, and answers the job', async () => {
    const { status, body } = await enqueue({
      name: 'email.send',
      queue: 'mail',
      payloadJson: '{"to":"ada@example.com"}',
      delay: '10s',
      priority: 5,
      idempotencyKey: 'welcome-ada',
      maxAttempts: 7,
    });
    expect(status).toBe(200);
    expect(body.deduped).toBe(false);
    expect(body.job).toMatchObject({
      name: 'email.send',
      queue: 'mail',
      state: 'delayed',
      payload: { to: 'ada@example.com' },
      runAt: T0 + 10_000,
      priority: 5,
      idempotencyKey: 'welcome-ada',
      maxAttempts: 7,
    });
    const stored = await mustGet(driver, body.job.id);
    expect(stored).toMatchObject({ queue: 'mail', payload: { to: 'ada@example.com' } });
  });

  it('takes the payload as a JSON value too, and defaults like berth enqueue', async () => {
    const { body } = await enqueue({ name: 'report.build', payload: [1, { a: null }] });
    expect(body.job).toMatchObject({
      queue: 'default',
      state: 'ready',
      payload: [1, { a: null }],
      maxAttempts: 3,
      priority: 0,
    });
    const bare = await enqueue({ name: 'report.build' });
    expect(bare.body.job.payload).toBeNull();
  });

  it('answers the live holder of an idempotency key, deduped, instead of a second job', async () => {
    const first = await enqueue({ name: 'email.send', idempotencyKey: 'k-1' });
    const second = await enqueue({ name: 'email.send', idempotencyKey: 'k-1', payload: 2 });
    expect(second.body).toMatchObject({ deduped: true, job: { id: first.body.job.id } });
    expect((await driver.list({ name: 'email.send' })).jobs).toHaveLength(1);
  });

  it('refuses payload text that is not JSON with JOB_INVALID, its parser message and a fix', async () => {
    const { status, body } = await enqueue<Refusal>({ name: 'a', payloadJson: '{"to": ' });
    expect(status).toBe(400);
    expect(body.error.code).toBe('JOB_INVALID');
    expect(body.error.message).toMatch(/^payload is not JSON: /);
    expect(body.error.fix).toBe('Correct the value the message names and send the request again.');
    expect((await driver.list()).jobs).toEqual([]);
  });

  it('refuses what the driver refuses for berth enqueue too, with the driver’s detail', async () => {
    const cases: [unknown, RegExp][] = [
      [{ name: '' }, /^name /],
      [{ name: 'a', queue: 'q'.repeat(1_000) }, /^queue is longer than/],
      [{ name: 'a', idempotencyKey: 7 }, /^idempotencyKey must be a string/],
      [{ name: 'a', priority: 1.5 }, /^priority /],
      [{ name: 'a', maxAttempts: 0 }, /^maxAttempts /],
      [{ name: 'a', delay: '10' }, /^delay is not a duration/],
      [{ name: 'a', payload: 1, payloadJson: '1' }, /^payloadJson cannot be given with payload/],
      [{ name: 'a', runAt: 5 }, /^runAt is not a field this route takes/],
    ];
    for (const [request, message] of cases) {
      const { status, body } = await enqueue<Refusal>(request);
      expect([status, body.error.code], JSON.stringify(request)).toEqual([400, 'JOB_INVALID']);
      expect(body.error.message).toMatch(message);
    }
    expect((await driver.list()).jobs).toEqual([]);
  });

  it('refuses a payload over the driver’s size limit with the driver’s own refusal', async () => {
    const small = createMemoryDriver({ clock: createManualClock(T0), maxPayloadBytes: 64 });
    const dashboard = await startDashboard({ driver: small });
    opened.push(dashboard);
    const own = await openSession(dashboard.base);
    const { status, body } = await postApi<Refusal>(dashboard.base, '/jobs', own, {
      name: 'a',
      payload: { text: 'x'.repeat(100) },
    });
    expect([status, body.error.code]).toEqual([400, 'JOB_INVALID']);
    expect(body.error.message).toMatch(/^payload /);
    await small.close();
  });

  it('needs the CSRF token, and a read-only dashboard refuses it', async () => {
    const noToken = await enqueue<Refusal>({ name: 'a' }, { 'x-berth-csrf': 'forged' });
    expect([noToken.status, noToken.body.error.code]).toEqual([403, 'CSRF_REFUSED']);
    const readOnly = await startDashboard({ driver, readOnly: true });
    opened.push(readOnly);
    const own = await openSession(readOnly.base);
    const refused = await postApi<Refusal>(readOnly.base, '/jobs', own, { name: 'a' });
    expect([refused.status, refused.body.error.code]).toEqual([403, 'READ_ONLY']);
    expect((await driver.list()).jobs).toEqual([]);
  });

  it('a tenant-scoped dashboard enqueues for its tenant and refuses another tenant', async () => {
    const scoped = await startDashboard({
      driver,
      tenant: (request) => String(request.headers['x-tenant'] ?? ''),
    });
    opened.push(scoped);
    const asAcme = { 'x-tenant': 'acme' };
    const own = await openSession(scoped.base, asAcme);
    const made = await postApi<EnqueueResponse>(scoped.base, '/jobs', own, { name: 'a' }, asAcme);
    expect(made.body.job.tenantId).toBe('acme');
    expect((await mustGet(driver, made.body.job.id)).tenantId).toBe('acme');
    const same = await postApi(scoped.base, '/jobs', own, { name: 'a', tenantId: 'acme' }, asAcme);
    expect(same.status).toBe(200);
    const other = await postApi<Refusal>(
      scoped.base,
      '/jobs',
      own,
      { name: 'a', tenantId: 'globex' },
      asAcme,
    );
    expect([other.status, other.body.error.code]).toEqual([400, 'JOB_INVALID']);
    expect(other.body.error.message).toContain('scoped to acme');
    expect((await driver.list({ tenantId: 'globex' })).jobs).toEqual([]);
  });

  it('an unscoped dashboard enqueues for the tenant the body names', async () => {
    const { body } = await enqueue({ name: 'a', tenantId: 'globex' });
    expect((await mustGet(driver, body.job.id)).tenantId).toBe('globex');
  });
});
