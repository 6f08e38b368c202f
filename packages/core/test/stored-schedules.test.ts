import { describe, expect, it } from 'vitest';
import { createClient, createScheduler, defineJob, isBerthError } from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const report = defineJob<{ scope: string }>({ name: 'report', queue: 'reports', run: () => {} });

const refusal = async (promise: Promise<unknown>): Promise<unknown> => {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a refusal');
};

/** A client and a scheduler over one memory driver on a manual clock at T0. */
async function setup() {
  const { driver, clock } = memoryOnManualClock();
  await clock.set(T0);
  const client = createClient({ driver });
  const scheduler = createScheduler({ driver });
  // A slot's key ends with its instant: `stored-schedule:<uuid>:<ISO instant>`.
  const slotsOf = async () =>
    (await driver.list({ name: 'report' })).jobs
      .map((job) => Date.parse((job.idempotencyKey ?? '').split(':').slice(2).join(':')))
      .sort((a, b) => a - b);
  return { driver, clock, client, scheduler, slotsOf };
}

describe('stored schedules', () => {
  it('upsert stores the next slot after now; the same upsert again changes nothing; a new payload keeps the slot, a new cron moves it', async () => {
    const { client, clock } = await setup();
    const first = await client.schedules.upsert({
      name: 'nightly',
      cron: '0 3 * * *',
      job: report,
      payload: { scope: 'daily' },
    });
    expect(first).toMatchObject({
      created: true,
      changed: true,
      schedule: { name: 'nightly', job: 'report', queue: 'reports', revision: 1 },
    });
    expect(first.schedule.nextAt).toBe(Date.UTC(2026, 0, 2, 3));
    const again = await client.schedules.upsert({
      name: 'nightly',
      cron: '0 3 * * *',
      job: report,
      payload: { scope: 'daily' },
    });
    expect(again).toEqual({ schedule: first.schedule, created: false, changed: false });
    await clock.advance(HOUR);
    const repaid = await client.schedules.upsert({
      name: 'nightly',
      cron: '0 3 * * *',
      job: report,
      payload: { scope: 'weekly' },
    });
    expect(repaid.schedule).toMatchObject({ revision: 2, nextAt: Date.UTC(2026, 0, 2, 3) });
    const moved = await client.schedules.upsert({
      name: 'nightly',
      cron: '30 14 * * *',
      job: report,
      payload: { scope: 'weekly' },
    });
    expect(moved.schedule).toMatchObject({ revision: 3, nextAt: Date.UTC(2026, 0, 1, 14, 30) });
  });

  it('a running scheduler runs a schedule stored after it started, at each slot, exactly once, and stops when it is removed', async () => {
    const { client, clock, scheduler, slotsOf } = await setup();
    await scheduler.tick();
    await client.schedules.upsert({
      name: 'hourly',
      cron: '0 * * * *',
      job: report,
      payload: { scope: 'h' },
    });
    expect((await scheduler.tick()).enqueued).toEqual([]);
    await clock.set(T0 + HOUR);
    const tick = await scheduler.tick();
    expect(tick.enqueued).toMatchObject([{ schedule: 'hourly', slot: T0 + HOUR, deduped: false }]);
    expect((await scheduler.tick()).enqueued).toEqual([]);
    await clock.set(T0 + 2 * HOUR + 5_000);
    await scheduler.tick();
    expect(await slotsOf()).toEqual([T0 + HOUR, T0 + 2 * HOUR]);
    expect(await client.schedules.remove('hourly')).toBe(true);
    expect(await client.schedules.remove('hourly')).toBe(false);
    await clock.set(T0 + 5 * HOUR);
    expect((await scheduler.tick()).enqueued).toEqual([]);
    expect(await slotsOf()).toEqual([T0 + HOUR, T0 + 2 * HOUR]);
  });

  it('catchUp n on a first store runs the latest n past slots at the next tick; none (the default) runs none of them', async () => {
    const { client, scheduler, slotsOf } = await setup();
    await scheduler.tick();
    await client.schedules.upsert({ name: 'a', cron: '0 * * * *', job: 'report', catchUp: 2 });
    await client.schedules.upsert({ name: 'b', cron: '0 * * * *', job: 'report' });
    const tick = await scheduler.tick();
    expect(tick.enqueued.map((slot) => [slot.schedule, slot.slot])).toEqual([
      ['a', T0 - HOUR],
      ['a', T0],
    ]);
    expect(await slotsOf()).toEqual([T0 - HOUR, T0]);
  });

  it('after downtime a new leader runs the latest catchUp.maxSlots missed slots (default 1), as for a schedule in code', async () => {
    const { client, clock, driver, slotsOf } = await setup();
    await client.schedules.upsert({ name: 'hourly', cron: '0 * * * *', job: 'report' });
    await clock.set(T0 + 5 * HOUR + MINUTE);
    await createScheduler({ driver }).tick();
    expect(await slotsOf()).toEqual([T0 + 5 * HOUR]);
    await clock.set(T0 + 9 * HOUR + MINUTE);
    await createScheduler({ driver, catchUp: { maxSlots: 2 }, leaseName: 'other' }).tick();
    expect(await slotsOf()).toEqual([T0 + 5 * HOUR, T0 + 8 * HOUR, T0 + 9 * HOUR]);
  });

  it('pause stops its slots; resume starts at the next slot after now, not the ones paused through', async () => {
    const { client, clock, scheduler, slotsOf } = await setup();
    await scheduler.tick();
    await client.schedules.upsert({ name: 'hourly', cron: '0 * * * *', job: 'report' });
    const paused = await client.schedules.pause('hourly');
    expect(paused.paused).toBe(true);
    expect(await client.schedules.pause('hourly')).toEqual(paused);
    await clock.set(T0 + 3 * HOUR + MINUTE);
    expect((await scheduler.tick()).enqueued).toEqual([]);
    const resumed = await client.schedules.resume('hourly');
    expect(resumed).toMatchObject({ paused: false, nextAt: T0 + 4 * HOUR });
    await clock.set(T0 + 4 * HOUR);
    await scheduler.tick();
    expect(await slotsOf()).toEqual([T0 + 4 * HOUR]);
  });

  it('one name per tenant: each tenant’s schedule runs its own jobs under its tenant, with its own job ids', async () => {
    const { client, clock, driver, scheduler } = await setup();
    await scheduler.tick();
    for (const tenantId of ['acme', 'zeta']) {
      await client.schedules.upsert({ name: 'hourly', cron: '0 * * * *', job: 'report', tenantId });
    }
    expect(await client.schedules.get('hourly')).toBeUndefined();
    await clock.set(T0 + HOUR);
    const tick = await scheduler.tick();
    expect(tick.enqueued.map((slot) => slot.tenantId)).toEqual(['acme', 'zeta']);
    const [acme, zeta] = tick.enqueued;
    expect(acme?.jobId).not.toBe(zeta?.jobId);
    expect((await driver.get(acme?.jobId ?? '', { tenantId: 'acme' }))?.tenantId).toBe('acme');
    await refusal(client.schedules.pause('hourly')).then((error) =>
      expect(isBerthError(error, 'SCHEDULE_NOT_FOUND') && error.meta).toEqual({ name: 'hourly' }),
    );
  });

  it('lastSlot answers the slot the schedulers last enqueued and its job, per tenant; none before the first', async () => {
    const { client, clock, driver, scheduler } = await setup();
    await scheduler.tick();
    await client.schedules.upsert({
      name: 'hourly',
      cron: '0 * * * *',
      job: 'report',
      tenantId: 'acme',
    });
    expect(await client.schedules.lastSlot('hourly', { tenantId: 'acme' })).toBeUndefined();
    await clock.set(T0 + 2 * HOUR + 5_000);
    const [enqueued] = (await scheduler.tick()).enqueued;
    const last = await client.schedules.lastSlot('hourly', { tenantId: 'acme' });
    expect(last).toEqual({ slot: T0 + 2 * HOUR, jobId: enqueued?.jobId, state: 'ready' });
    expect((await driver.get(last?.jobId ?? '', { tenantId: 'acme' }))?.name).toBe('report');
    await client.schedules.pause('hourly', { tenantId: 'acme' });
    expect(await client.schedules.lastSlot('hourly', { tenantId: 'acme' })).toEqual(last);
    expect(await client.schedules.lastSlot('hourly')).toBeUndefined();
    await refusal(client.schedules.lastSlot('')).then((error) =>
      expect(isBerthError(error, 'JOB_INVALID') && error.meta).toMatchObject({ field: 'name' }),
    );
  });

  it('two schedulers over one store: only the leader enqueues, and after a failover no slot runs twice', async () => {
    const { client, clock, driver, slotsOf } = await setup();
    const a = createScheduler({ driver, leaseTtlMs: 5_000, tickMs: 1_000 });
    const b = createScheduler({ driver, leaseTtlMs: 5_000, tickMs: 1_000 });
    await a.tick();
    await b.tick();
    await client.schedules.upsert({ name: 'minutely', cron: '* * * * *', job: 'report' });
    await clock.set(T0 + MINUTE);
    await a.tick();
    await b.tick();
    await clock.set(T0 + MINUTE + 10_000);
    await b.tick();
    await clock.set(T0 + 2 * MINUTE);
    await b.tick();
    await a.tick();
    expect(await slotsOf()).toEqual([T0 + MINUTE, T0 + 2 * MINUTE]);
  });

  it('bad input is JOB_INVALID naming the field, and nothing is stored', async () => {
    const { client } = await setup();
    const cases: [Record<string, unknown>, string][] = [
      [{ cron: 'every day' }, 'cron'],
      [{ cron: '0 3 * * *', timezone: 'Mars/Olympus' }, 'cron'],
      [{ cron: '0 3 * * *', every: 'day' }, 'every'],
      [{ cron: '0 3 * * *', catchUp: -1 }, 'catchUp'],
      [{ cron: '0 3 * * *', job: 42 }, 'job'],
    ];
    for (const [fields, field] of cases) {
      const error = await refusal(
        client.schedules.upsert({ name: 'n', job: 'report', ...fields } as never),
      );
      expect(isBerthError(error, 'JOB_INVALID') && error.meta.field).toBe(field);
    }
    expect((await client.schedules.list()).schedules).toEqual([]);
  });

  it('an upsert whose answer was lost, called again, answers the stored schedule unchanged', async () => {
    const { driver, client } = await setup();
    const put = driver.schedules.put;
    let lose = true;
    driver.schedules.put = async (...args) => {
      const answer = await put(...args);
      if (lose) {
        lose = false;
        throw new Error('connection reset');
      }
      return answer;
    };
    const input = { name: 'n', cron: '0 3 * * *', job: 'report' } as const;
    await refusal(client.schedules.upsert(input));
    expect(await client.schedules.upsert(input)).toMatchObject({
      created: false,
      changed: false,
      schedule: { revision: 1 },
    });
  });
});
