import type { Driver, ListRequest } from '@berth/core';
import { createMemoryDriver } from '@berth/driver-memory';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FindResponse, JobSummary } from '../src/index.js';
import { getApi, startDashboard, type TestDashboard } from './support/server.js';

interface Refusal {
  readonly error: {
    readonly code: string;
    readonly message: string;
    readonly fix?: string;
    readonly candidates?: readonly JobSummary[];
  };
}

/** Time-ordered ids as pg makes them: one shared start, told apart only by their ends. */
const PREFIX = '0190a0b0-1c2d-7';
const id = (tail: string) => `${PREFIX}000-8000-${tail.padStart(12, '0')}`;

let driver: Driver;
let listCalls: ListRequest[];
const opened: TestDashboard[] = [];

beforeEach(async () => {
  driver = createMemoryDriver();
  const list = driver.list.bind(driver);
  listCalls = [];
  driver.list = (request) => {
    listCalls.push(request ?? {});
    return list(request);
  };
});
afterEach(async () => {
  for (const served of opened.splice(0)) await served.close();
  await driver.close();
});

async function start(options: { idSearchScan?: number; tenant?: string } = {}) {
  const served = await startDashboard({
    driver,
    ...(options.idSearchScan === undefined ? {} : { idSearchScan: options.idSearchScan }),
    ...(options.tenant === undefined ? {} : { tenant: () => options.tenant ?? '' }),
  });
  opened.push(served);
  return served;
}

const find = <T = FindResponse>(served: TestDashboard, given: string) =>
  getApi<T>(served.base, `/find?id=${encodeURIComponent(given)}`);

describe('GET /api/find?id=', () => {
  it('finds a job by its whole id, a unique start or a unique end, in any case', async () => {
    const ids = ['a1b2c3', 'b2c3d4', 'c3d4e5'].map(id);
    for (const jobId of ids) await driver.enqueue({ id: jobId, name: 'email.send' });
    const served = await start();
    expect(ids[1]).toBe('0190a0b0-1c2d-7000-8000-000000b2c3d4');
    for (const given of [
      ids[1] ?? '',
      'b2c3d4',
      '0b2c3d4',
      'B2C3D4',
      '0190a0b0-1c2d-7000-8000-000000b2',
    ]) {
      const answer = await find(served, given);
      expect([given, answer.status, answer.body.job?.id]).toEqual([given, 200, ids[1]]);
    }
    expect((await find(served, 'a1b2c3')).body.job.name).toBe('email.send');
  });

  it('a part several ids share answers 409 ID_AMBIGUOUS with the candidates', async () => {
    const ids = ['11aaaa', '22aaaa', '33bbbb'].map(id);
    for (const jobId of ids) await driver.enqueue({ id: jobId, name: 'report.build' });
    const served = await start();
    const shared = await find<Refusal>(served, PREFIX);
    expect([shared.status, shared.body.error.code]).toEqual([409, 'ID_AMBIGUOUS']);
    expect(shared.body.error.candidates?.map((job) => job.id).sort()).toEqual([...ids].sort());
    expect(shared.body.error.message).toContain('3 jobs');
    const tail = await find<Refusal>(served, 'aaaa');
    expect([tail.status, tail.body.error.candidates?.length]).toEqual([409, 2]);
    expect(tail.body.error.fix).toMatch(/more of the id/);
  });

  it('no match answers 404 JOB_NOT_FOUND; too short a part answers 400 JOB_INVALID', async () => {
    await driver.enqueue({ id: id('abcdef'), name: 'email.send' });
    const served = await start();
    const none = await find<Refusal>(served, 'fedcba');
    expect([none.status, none.body.error.code]).toEqual([404, 'JOB_NOT_FOUND']);
    expect(none.body.error.message).toBe('no job has an id that starts or ends with "fedcba"');
    const short = await find<Refusal>(served, 'ab');
    expect([short.status, short.body.error.code]).toEqual([400, 'JOB_INVALID']);
    expect((await find<Refusal>(served, '')).status).toBe(400);
  });

  it('reads at most idSearchScan rows (default 5000) in pages of 500, and says where it stopped', async () => {
    const oldest = id('0ddba11');
    await driver.enqueue({ id: oldest, name: 'old.job' });
    for (let batch = 0; batch < 6; batch += 1) {
      await driver.enqueueMany(Array.from({ length: 850 }, () => ({ name: 'bulk' })));
    }
    const served = await start();
    listCalls.length = 0;
    const beyond = await find<Refusal>(served, '0ddba11');
    expect(beyond.status).toBe(404);
    expect(beyond.body.error.message).toContain('among the 5000 newest');
    expect(beyond.body.error.fix).toContain('whole id');
    expect(listCalls.length).toBe(10);
    expect(listCalls.every((call) => call.limit === 500)).toBe(true);
    // The whole id is read directly, however old.
    expect((await find(served, oldest)).body.job.id).toBe(oldest);
    const small = await start({ idSearchScan: 600 });
    listCalls.length = 0;
    expect((await find<Refusal>(small, '0ddba11')).body.error.message).toContain('600 newest');
    expect(listCalls.map((call) => call.limit)).toEqual([500, 100]);
  });

  it('on a tenant-scoped dashboard, finds only that tenant’s jobs', async () => {
    await driver.enqueue({ id: id('ac0e01'), name: 'mail', tenantId: 'acme' });
    await driver.enqueue({ id: id('9e0b01'), name: 'mail', tenantId: 'globex' });
    const served = await start({ tenant: 'acme' });
    expect((await find(served, 'ac0e01')).body.job.tenantId).toBe('acme');
    expect((await find<Refusal>(served, '9e0b01')).status).toBe(404);
    expect((await find<Refusal>(served, id('9e0b01'))).status).toBe(404);
    expect(listCalls.every((call) => call.tenantId === 'acme')).toBe(true);
  });
});
