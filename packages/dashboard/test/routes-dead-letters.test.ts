import type { Driver, PurgeRequest } from '@berth/core';
import { createMemoryDriver } from '@berth/driver-memory';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DeadLettersResponse, GroupActionResponse } from '../src/index.js';
import { mustGet, type Seeded, seedEveryState, WORKER } from './support/seed.js';
import {
  getApi,
  openSession,
  postApi,
  type Session,
  startDashboard,
  type TestDashboard,
} from './support/server.js';

let driver: Driver;
let seeded: Seeded;
let served: TestDashboard;
let session: Session;

beforeEach(async () => {
  driver = createMemoryDriver();
  seeded = await seedEveryState(driver);
  served = await startDashboard({ driver, deadLetterScan: 10 });
  session = await openSession(served.base);
});
afterEach(async () => {
  await served.close();
  await driver.close();
});

const groupOf = async (code: string) => {
  const { body } = await getApi<DeadLettersResponse>(served.base, '/dead-letters');
  const group = body.groups.find((candidate) => candidate.code === code);
  if (group === undefined) throw new Error(`no ${code} group`);
  return group;
};

/** A dead job of `queue` failing with `message`. */
async function bury(queue: string, message: string, code = 'CARD_DECLINED') {
  const { id } = await driver.enqueue({ name: 'invoice.charge', queue, maxAttempts: 1 });
  const [job] = await driver.claim({
    queues: [queue],
    workerId: WORKER,
    visibilityTimeoutMs: 1_000,
  });
  if (job === undefined) throw new Error('nothing claimed');
  await driver.nack(
    { jobId: id, workerId: WORKER, claim: job.claim },
    {
      error: { code, message },
      final: true,
    },
  );
  return id;
}

describe('GET /api/dead-letters', () => {
  it('groups dead jobs by queue, code and normalised message, biggest first, with a sample', async () => {
    const { status, body } = await getApi<DeadLettersResponse>(served.base, '/dead-letters');
    expect(status).toBe(200);
    expect(body).toMatchObject({ queue: null, scanned: 5, limit: 10, capped: false });
    expect(
      body.groups.map((group) => [group.queue, group.code, group.message, group.count]),
    ).toEqual([
      ['billing', 'CARD_DECLINED', 'card declined for order <n> (customer <n>)', 3],
      ['billing', 'UPSTREAM_TIMEOUT', '<url> timed out after <n> ms', 2],
    ]);
    const [declined] = body.groups;
    expect(new Set(declined?.ids)).toEqual(new Set(seeded.declined));
    // The sample is the group's most recent job, with its own words and payload.
    expect(declined?.sample).toMatchObject({
      id: seeded.declined[2],
      name: 'invoice.charge',
      message: 'card declined for order 1002 (customer 1009)',
      payload: { order: 'invoice.charge' },
    });
  });

  it('keeps one cause in two queues as two groups, and filters by queue', async () => {
    await bury('shop', 'card declined for order 5 (customer 6)');
    const all = await getApi<DeadLettersResponse>(served.base, '/dead-letters');
    expect(all.body.groups.map((group) => `${group.queue}:${group.count}`)).toEqual([
      'billing:3',
      'billing:2',
      'shop:1',
    ]);
    const shop = await getApi<DeadLettersResponse>(served.base, '/dead-letters?queue=shop');
    expect(shop.body.groups.map((group) => group.queue)).toEqual(['shop']);
    expect(shop.body.queue).toBe('shop');
  });

  it('reads at most deadLetterScan of the newest dead jobs and says when more exist', async () => {
    for (let index = 0; index < 7; index += 1)
      await bury('bulk', `row ${index} is locked`, 'LOCKED');
    const { body } = await getApi<DeadLettersResponse>(served.base, '/dead-letters');
    expect(body).toMatchObject({ scanned: 10, limit: 10, capped: true });
    expect(body.groups.reduce((total, group) => total + group.count, 0)).toBe(10);
    // Newest first: the seven newest rows are all read, the oldest seed rows are not.
    expect(body.groups[0]).toMatchObject({ queue: 'bulk', message: 'row <n> is locked', count: 7 });
  });
});

describe('POST /api/dead-letters/(retry|purge)', () => {
  it('retry group requeues every job of the group and reports each', async () => {
    const group = await groupOf('CARD_DECLINED');
    const { status, body } = await postApi<GroupActionResponse>(
      served.base,
      '/dead-letters/retry',
      session,
      { key: group.key, ids: group.ids },
    );
    expect(status).toBe(200);
    expect(body.results.map((result) => result.outcome)).toEqual([
      'requeued',
      'requeued',
      'requeued',
    ]);
    for (const id of seeded.declined) expect((await mustGet(driver, id)).state).toBe('ready');
    for (const id of seeded.timedOut) expect((await mustGet(driver, id)).state).toBe('dead');
  });

  it('purge group deletes every job of the group, and nothing else', async () => {
    const group = await groupOf('UPSTREAM_TIMEOUT');
    const { body } = await postApi<GroupActionResponse>(
      served.base,
      '/dead-letters/purge',
      session,
      {
        key: group.key,
        ids: group.ids,
      },
    );
    expect(body.results).toEqual(
      seeded.timedOut.map((id) => ({ id, outcome: 'purged' })).reverse(),
    );
    for (const id of seeded.timedOut) expect(await driver.get(id)).toBeUndefined();
    for (const id of seeded.declined) expect((await mustGet(driver, id)).state).toBe('dead');
  });

  it('skips, and says why, a job that left the group since the page was read', async () => {
    const group = await groupOf('CARD_DECLINED');
    const [requeued, purged, other] = seeded.declined;
    await driver.requeue(requeued ?? '');
    await driver.purge({
      states: ['dead'],
      olderThan: driver.clock.now() + 1,
      ids: [purged ?? ''],
    });
    const foreign = seeded.timedOut[0] ?? '';
    const { body } = await postApi<GroupActionResponse>(
      served.base,
      '/dead-letters/purge',
      session,
      {
        key: group.key,
        ids: [requeued, purged, other, foreign],
      },
    );
    expect(body.results).toEqual([
      { id: requeued, outcome: 'skipped', message: 'it is ready now' },
      { id: purged, outcome: 'skipped', message: 'no such job' },
      { id: other, outcome: 'purged' },
      { id: foreign, outcome: 'skipped', message: 'its error no longer matches this group' },
    ]);
    expect((await mustGet(driver, foreign)).state).toBe('dead');
  });

  it('reports a refused requeue per job and goes on with the rest', async () => {
    const holder = await driver.enqueue({
      name: 'invoice.charge',
      queue: 'keys',
      idempotencyKey: 'k',
    });
    await driver.cancel(holder.id);
    const keyed = await driver.enqueue({
      name: 'invoice.charge',
      queue: 'keys',
      idempotencyKey: 'k',
      maxAttempts: 1,
    });
    const [claimed] = await driver.claim({
      queues: ['keys'],
      workerId: WORKER,
      visibilityTimeoutMs: 1_000,
    });
    await driver.nack(
      { jobId: keyed.id, workerId: WORKER, claim: claimed?.claim ?? 0 },
      { error: { code: 'CARD_DECLINED', message: 'card declined' }, final: true },
    );
    const second = await bury('keys', 'card declined');
    await driver.requeue(holder.id);
    const group = (await getApi<DeadLettersResponse>(served.base, '/dead-letters?queue=keys')).body
      .groups[0];
    const { body } = await postApi<GroupActionResponse>(
      served.base,
      '/dead-letters/retry',
      session,
      {
        key: group?.key,
        ids: group?.ids,
      },
    );
    expect(body.results).toEqual([
      { id: second, outcome: 'requeued' },
      {
        id: keyed.id,
        outcome: 'refused',
        code: 'JOB_DUPLICATE',
        message: expect.stringContaining('already holds idempotency key'),
      },
    ]);
  });

  it('purge group removes each job with its own bounded call: one id, limit 1', async () => {
    const calls: PurgeRequest[] = [];
    const spied: Driver = {
      ...driver,
      purge: (request) => {
        calls.push(request);
        return driver.purge(request);
      },
    };
    const spiedServer = await startDashboard({ driver: spied, deadLetterScan: 10 });
    try {
      const spiedSession = await openSession(spiedServer.base);
      const group = await groupOf('UPSTREAM_TIMEOUT');
      await postApi(spiedServer.base, '/dead-letters/purge', spiedSession, {
        key: group.key,
        ids: group.ids,
      });
    } finally {
      await spiedServer.close();
    }
    expect(calls.map((call) => [call.ids, call.limit])).toEqual(
      [...seeded.timedOut].reverse().map((id) => [[id], 1]),
    );
  });

  it('refuses a request without a key or with too many ids', async () => {
    const noKey = await postApi<{ error: { code: string } }>(
      served.base,
      '/dead-letters/retry',
      session,
      {
        ids: [seeded.declined[0]],
      },
    );
    expect([noKey.status, noKey.body.error.code]).toEqual([400, 'JOB_INVALID']);
    const many = Array.from({ length: 11 }, () => seeded.declined[0]);
    const tooMany = await postApi<{ error: { code: string } }>(
      served.base,
      '/dead-letters/purge',
      session,
      {
        key: 'x',
        ids: many,
      },
    );
    expect([tooMany.status, tooMany.body.error.code]).toEqual([400, 'JOB_INVALID']);
  });
});
