import { describe, expect, it } from 'vitest';
import { createScheduler, slotJobId, slotKey } from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';

const T0 = Date.UTC(2026, 0, 1);
const MINUTE = 60_000;
const everyMinute = {
  name: 'report',
  cron: '* * * * *',
  job: 'report',
  payload: { kind: 'daily' },
};

describe('scheduler leadership', () => {
  it('lets one of two schedulers lead, and enqueues each slot once', async () => {
    const { driver, clock } = memoryOnManualClock();
    const options = {
      driver,
      schedules: [everyMinute],
      leaseTtlMs: 5 * MINUTE,
      catchUp: { neverRun: 1 },
    };
    const a = createScheduler({ ...options, holderId: 'a' });
    const b = createScheduler({ ...options, holderId: 'b' });

    const ticks = [];
    for (let minute = 1; minute <= 3; minute += 1) {
      await clock.set(T0 + minute * MINUTE);
      ticks.push(await a.tick(), await b.tick());
    }

    expect(ticks.map((tick) => tick.leader)).toEqual([true, false, true, false, true, false]);
    const { jobs } = await driver.list({ name: 'report' });
    expect(jobs.map((job) => job.idempotencyKey).sort()).toEqual([
      slotKey('report', T0 + MINUTE),
      slotKey('report', T0 + 2 * MINUTE),
      slotKey('report', T0 + 3 * MINUTE),
    ]);
    expect(jobs.every((job) => job.payload !== null)).toBe(true);
  });

  it('hands the lead over once the leader stops renewing, and the new leader catches up', async () => {
    const { driver, clock } = memoryOnManualClock();
    const options = { driver, schedules: [everyMinute], leaseTtlMs: 30_000, tickMs: 1_000 };
    const a = createScheduler({ ...options, holderId: 'a' });
    const b = createScheduler({ ...options, holderId: 'b' });

    await clock.set(T0 + 10_000);
    expect((await a.tick()).leader).toBe(true);
    // a crashes: it never ticks again and never releases the lease.
    await clock.set(T0 + 30_000);
    expect((await b.tick()).leader).toBe(false);
    await clock.set(T0 + 65_000);
    const takeover = await b.tick();

    expect(takeover.leader).toBe(true);
    expect(takeover.enqueued).toEqual([
      {
        schedule: 'report',
        slot: T0 + MINUTE,
        jobId: slotJobId('report', T0 + MINUTE),
        deduped: false,
      },
    ]);
  });

  it('gives the lead up on stop, so another scheduler takes it at once', async () => {
    const { driver, clock } = memoryOnManualClock();
    const a = createScheduler({ driver, schedules: [everyMinute], holderId: 'a' });
    const b = createScheduler({ driver, schedules: [everyMinute], holderId: 'b' });

    await a.start();
    expect(a.isLeader()).toBe(true);
    await a.stop();
    await clock.advance(1);

    expect((await b.tick()).leader).toBe(true);
  });

  it('ticks on its own every tickMs once started, until stopped', async () => {
    const { driver, clock } = memoryOnManualClock();
    const scheduler = createScheduler({
      driver,
      schedules: [everyMinute],
      catchUp: { maxSlots: 0 },
      tickMs: 5_000,
    });

    await scheduler.start();
    expect(await driver.list({ name: 'report' })).toMatchObject({ jobs: [] });
    // Time moves as it would: one tick every 5 s, each renewing the lead.
    for (let at = 5_000; at <= MINUTE; at += 5_000) await clock.advance(5_000);
    expect((await driver.list({ name: 'report' })).jobs).toHaveLength(1);
    await scheduler.stop();
    await clock.advance(5 * MINUTE);

    expect((await driver.list({ name: 'report' })).jobs).toHaveLength(1);
    expect(clock.pending()).toBe(0);
  });
});
