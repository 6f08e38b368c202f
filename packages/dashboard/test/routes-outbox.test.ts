import { createMemoryDriver } from '@berth/driver-memory';
import { afterEach, describe, expect, it } from 'vitest';
import type { OutboxActionResponse, OutboxResponse } from '../src/index.js';
import { deadJobRow, memoryOutbox } from './support/outbox.js';
import {
  getApi,
  openSession,
  postApi,
  startDashboard,
  type TestDashboard,
} from './support/server.js';

const driver = createMemoryDriver();
const opened: TestDashboard[] = [];
afterEach(async () => {
  for (const served of opened.splice(0)) await served.close();
});

/** A refusal as the dashboard answers it. */
type Problem = { readonly error: { readonly code: string } };

const ROW_A = '0190c1a0-0000-4000-8000-00000000000a';
const ROW_B = '0190c1a0-0000-4000-8000-00000000000b';

describe('GET /api/outbox and its actions', () => {
  it('shows what waits and the dead rows with their refusal; retry and discard act on the ids that were dead', async () => {
    const { outbox, calls } = memoryOutbox({
      staged: 3,
      dead: [deadJobRow(ROW_A, 'invoice.send'), deadJobRow(ROW_B, 'invoice.send')],
    });
    const served = await startDashboard({ driver, outbox });
    opened.push(served);
    const view = await getApi<OutboxResponse>(served.base, '/outbox');
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({
      configured: true,
      tenantScoped: false,
      stats: { staged: 3, dead: 2, oldestStagedAt: Date.UTC(2026, 11, 5) },
    });
    expect(view.body.dead[0]).toEqual({
      id: ROW_A,
      kind: 'job',
      name: 'invoice.send',
      refusal: { code: 'JOB_INVALID', message: 'payload is over the 1 KiB limit' },
      stagedAt: Date.UTC(2026, 11, 5, 9),
      deadAt: Date.UTC(2026, 11, 5, 9, 1),
    });
    const session = await openSession(served.base);
    const retried = await postApi<OutboxActionResponse>(served.base, '/outbox/retry', session, {
      ids: [ROW_A, 'not-a-dead-row'],
    });
    expect(retried.body.done).toEqual([ROW_A]);
    const discarded = await postApi<OutboxActionResponse>(served.base, '/outbox/discard', session, {
      ids: [ROW_B],
    });
    expect(discarded.body.done).toEqual([ROW_B]);
    expect(calls).toEqual([`retry ${ROW_A},not-a-dead-row`, `discard ${ROW_B}`]);
    const after = await getApi<OutboxResponse>(served.base, '/outbox');
    expect(after.body.stats).toMatchObject({ staged: 4, dead: 0 });
  });

  it('refuses bad ids, a read-only dashboard and a tenant-scoped one; without an outbox it says so', async () => {
    const { outbox, calls } = memoryOutbox({ staged: 0, dead: [deadJobRow(ROW_A, 'x')] });
    const served = await startDashboard({ driver, outbox });
    opened.push(served);
    const session = await openSession(served.base);
    for (const body of [{}, { ids: [] }, { ids: [7] }, { ids: 'x' }]) {
      const refused = await postApi<Problem>(served.base, '/outbox/retry', session, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error.code).toBe('JOB_INVALID');
    }
    const readOnly = await startDashboard({ driver, outbox, readOnly: true });
    opened.push(readOnly);
    const readOnlySession = await openSession(readOnly.base);
    const forbidden = await postApi(readOnly.base, '/outbox/discard', readOnlySession, {
      ids: [ROW_A],
    });
    expect(forbidden.status).toBe(403);
    const scoped = await startDashboard({ driver, outbox, tenant: () => 'acme' });
    opened.push(scoped);
    const scopedView = await getApi<OutboxResponse>(scoped.base, '/outbox');
    expect(scopedView.body).toMatchObject({
      configured: true,
      tenantScoped: true,
      stats: null,
      dead: [],
    });
    const scopedSession = await openSession(scoped.base);
    const scopedRetry = await postApi<Problem>(scoped.base, '/outbox/retry', scopedSession, {
      ids: [ROW_A],
    });
    expect([scopedRetry.status, scopedRetry.body.error.code]).toEqual([400, 'JOB_INVALID']);
    expect(calls).toEqual([]);
    const none = await startDashboard({ driver });
    opened.push(none);
    expect((await getApi<OutboxResponse>(none.base, '/outbox')).body).toMatchObject({
      configured: false,
    });
  });

  it('an outbox option that is not an outbox is CONFIG_INVALID at construction', async () => {
    await expect(startDashboard({ driver, outbox: {} as never })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
    });
  });
});
