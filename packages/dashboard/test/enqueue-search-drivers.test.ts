import { describe, expect, it } from 'vitest';
import type { EnqueueResponse, PayloadSearchResponse } from '../src/index.js';
import { type OpenedDriver, openPg, openRedis } from './support/drivers.js';
import { mustGet } from './support/seed.js';
import { getApi, openSession, postApi, startDashboard } from './support/server.js';

/** Jobs seeded per driver; one in SPACING is user 42's. */
const JOBS = 250;
const SPACING = 50;
const WINDOW = 100;

/**
 * Over real drivers: the payload search walks their list pages and cursors, window after
 * window, to the same matches the driver's own list holds; a job added through the API is
 * found by its payload.
 */
describe.each([
  ['pg', openPg],
  ['redis', openRedis],
] as const)('add a job and search payloads over %s', (_name, open: () => Promise<OpenedDriver>) => {
  it('finds every match window by window, newest first, with the filters, and the job it added', async () => {
    const opened = await open();
    const { driver } = opened;
    const served = await startDashboard({ driver });
    try {
      await driver.enqueueMany(
        Array.from({ length: JOBS }, (_, seq) => ({
          name: 'email.send',
          queue: 'mail',
          payload: { user: { id: seq % SPACING === 0 ? 42 : 1_000 + seq }, seq },
        })),
      );
      const session = await openSession(served.base);
      const added = await postApi<EnqueueResponse>(served.base, '/jobs', session, {
        name: 'email.send',
        queue: 'mail',
        payloadJson: '{"user": {"id": 42}, "seq": "added"}',
        tenantId: 'acme',
      });
      expect(added.status).toBe(200);
      expect((await mustGet(driver, added.body.job.id)).tenantId).toBe('acme');

      const expected: string[] = [];
      for (let after: string | undefined, more = true; more; ) {
        const page = await driver.list({ queue: 'mail', limit: 100, ...(after ? { after } : {}) });
        for (const job of page.jobs) {
          const payload = job.payload as { user: { id: number } };
          if (payload.user.id === 42) expected.push(job.id);
        }
        after = page.next;
        more = after !== undefined;
      }
      expect(expected).toHaveLength(JOBS / SPACING + 1);

      const found: string[] = [];
      const windows: number[] = [];
      let after: string | undefined;
      do {
        const query = new URLSearchParams({
          where: '$.user.id == 42',
          queue: 'mail',
          scan: String(WINDOW),
          limit: '100',
          ...(after === undefined ? {} : { after }),
        });
        const { status, body } = await getApi<PayloadSearchResponse>(
          served.base,
          `/payload-search?${query}`,
        );
        expect(status).toBe(200);
        windows.push(body.scanned);
        found.push(...body.jobs.map((job) => job.id));
        after = body.next;
      } while (after !== undefined);
      expect(windows).toEqual([WINDOW, WINDOW, JOBS + 1 - 2 * WINDOW]);
      expect(found).toEqual(expected);

      const tenant = await getApi<PayloadSearchResponse>(
        served.base,
        `/payload-search?${new URLSearchParams({ where: '$.seq == "added"', tenant: 'acme' })}`,
      );
      expect(tenant.body.jobs.map((job) => job.id)).toEqual([added.body.job.id]);
    } finally {
      await served.close();
      await opened.dispose();
    }
  });
});
