import { describe, expect, it } from 'vitest';
import { createScheduler, isBerthError, slotJobId, slotKey, slotMarkName } from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';

const T0 = Date.UTC(2026, 0, 1);
const MINUTE = 60_000;
const everyMinute = { name: 'sync', cron: '* * * * *', job: { name: 'sync', queue: 'cron' } };

const thrown = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
};

describe('scheduler slots', () => {
  it('never enqueues a slot twice, even from two leaders and after the first job completed', async () => {
    const { driver, clock } = memoryOnManualClock();
    // Two lease names: both lead at once, as after a split brain. Each runs the latest past slot
    // of the new schedule, so both reach the same slot.
    const options = { driver, schedules: [everyMinute], catchUp: { neverRun: 1 } };
    const a = createScheduler({ ...options, leaseName: 'one' });
    const b = createScheduler({ ...options, leaseName: 'two' });

    await clock.set(T0 + MINUTE);
    const first = await a.tick();
    const [job] = await driver.claim({
      queues: ['cron'],
      workerId: 'w',
      visibilityTimeoutMs: 1_000,
    });
    if (job === undefined) throw new Error('expected the slot job');
    await driver.ack({ jobId: job.id, workerId: 'w', claim: job.claim });
    const second = await b.tick();

    expect(first.enqueued.map((slot) => slot.deduped)).toEqual([false]);
    // The schedule's mark already holds the slot: the second leader does not enqueue it again.
    expect(second.enqueued).toEqual([]);
    expect(await driver.marks.get(slotMarkName('sync'))).toBe(T0 + MINUTE);
    expect((await driver.list({ name: 'sync' })).jobs).toHaveLength(1);
    expect(job).toMatchObject({
      id: slotJobId('sync', T0 + MINUTE),
      idempotencyKey: slotKey('sync', T0 + MINUTE),
      queue: 'cron',
      payload: null,
    });
  });

  it('enqueues at most catchUp.maxSlots missed slots after downtime, the latest ones', async () => {
    const { driver, clock } = memoryOnManualClock();
    const before = createScheduler({
      driver,
      schedules: [everyMinute],
      catchUp: { maxSlots: 3, neverRun: 3 },
    });
    await clock.set(T0 + MINUTE);
    await before.start();
    await before.stop();

    await clock.set(T0 + 11 * MINUTE + 30_000);
    const after = createScheduler({
      driver,
      schedules: [everyMinute],
      catchUp: { maxSlots: 3, neverRun: 3 },
    });
    const tick = await after.tick();

    expect(tick.enqueued.map((slot) => [slot.slot, slot.deduped])).toEqual([
      [T0 + 9 * MINUTE, false],
      [T0 + 10 * MINUTE, false],
      [T0 + 11 * MINUTE, false],
    ]);
    // The first start caught up too: T0 - 1 min, T0 and T0 + 1 min.
    expect((await driver.list({ name: 'sync' })).jobs).toHaveLength(6);
  });

  it('a new leader enqueues none of the caught-up slots an earlier leader already enqueued', async () => {
    const { driver, clock } = memoryOnManualClock();
    await clock.set(T0 + 2 * MINUTE);
    await createScheduler({
      driver,
      schedules: [everyMinute],
      catchUp: { maxSlots: 2, neverRun: 2 },
    }).tick();
    const tick = await createScheduler({
      driver,
      schedules: [everyMinute],
      catchUp: { maxSlots: 2, neverRun: 2 },
      leaseName: 'another-fleet',
    }).tick();

    expect(tick.enqueued).toEqual([]);
    expect((await driver.list({ name: 'sync' })).jobs).toHaveLength(2);
  });

  it('never enqueues a slot again after retention purged its job, when a new leader catches up', async () => {
    const { driver, clock } = memoryOnManualClock();
    const options = { driver, schedules: [everyMinute], catchUp: { maxSlots: 1, neverRun: 1 } };
    await clock.set(T0 + MINUTE + 30_000);
    const first = createScheduler({ ...options, holderId: 'first' });
    expect((await first.tick()).enqueued.map((slot) => slot.slot)).toEqual([T0 + MINUTE]);
    await first.stop();
    const [job] = await driver.claim({
      queues: ['cron'],
      workerId: 'w',
      visibilityTimeoutMs: 1_000,
    });
    if (job === undefined) throw new Error('expected the slot job');
    await driver.ack({ jobId: job.id, workerId: 'w', claim: job.claim });
    expect(await driver.purge({ states: ['completed'], olderThan: clock.now() + 1 })).toBe(1);

    const second = createScheduler({ ...options, holderId: 'second' });
    const takeover = await second.tick();
    expect(takeover.leader).toBe(true);
    expect(takeover.enqueued).toEqual([]);
    expect((await driver.list({ name: 'sync' })).jobs).toEqual([]);
    await clock.set(T0 + 2 * MINUTE + 30_000);
    expect((await second.tick()).enqueued.map((slot) => [slot.slot, slot.deduped])).toEqual([
      [T0 + 2 * MINUTE, false],
    ]);
  });

  it('a schedule no leader ever ran runs none of its past by default: a nightly job deployed in the afternoon first runs at night', async () => {
    const { driver, clock } = memoryOnManualClock();
    const nightly = { name: 'nightly', cron: '0 3 * * *', job: { name: 'nightly', queue: 'cron' } };
    const options = { driver, schedules: [nightly], leaseTtlMs: 10 * MINUTE };
    const afternoon = T0 + 15 * 60 * MINUTE;
    await clock.set(afternoon);
    expect((await createScheduler(options).tick()).enqueued).toEqual([]);
    // Seen: the mark holds the slot it passed, so the next leader owes nothing before it either.
    expect(await driver.marks.get(slotMarkName('nightly'))).toBe(T0 + 3 * 60 * MINUTE);
    await clock.set(afternoon + 30 * MINUTE);
    expect((await createScheduler({ ...options, holderId: 'next' }).tick()).enqueued).toEqual([]);
    const nextNight = T0 + 27 * 60 * MINUTE;
    await clock.set(nextNight + 5_000);
    const tick = await createScheduler({ ...options, holderId: 'later' }).tick();
    expect(tick.enqueued.map((slot) => slot.slot)).toEqual([nextNight]);
    expect((await driver.list({ name: 'nightly' })).jobs).toHaveLength(1);
  });

  it('a schedule seen once is caught up by maxSlots on a later lead, as any schedule after downtime', async () => {
    const { driver, clock } = memoryOnManualClock();
    const options = { driver, schedules: [everyMinute], catchUp: { maxSlots: 2 } };
    await clock.set(T0 + 30_000);
    expect((await createScheduler(options).tick()).enqueued).toEqual([]);
    // The first leader died right after: the next one, minutes later, runs the latest 2 missed.
    await clock.set(T0 + 5 * MINUTE + 30_000);
    const tick = await createScheduler({ ...options, holderId: 'next' }).tick();
    expect(tick.enqueued.map((slot) => slot.slot)).toEqual([T0 + 4 * MINUTE, T0 + 5 * MINUTE]);
  });

  it('catchUp.neverRun n runs the latest n past slots of a schedule no leader ever ran', async () => {
    const { driver, clock } = memoryOnManualClock();
    await clock.set(T0 + 10 * MINUTE + 30_000);
    const scheduler = createScheduler({
      driver,
      schedules: [everyMinute],
      catchUp: { neverRun: 2 },
    });
    expect((await scheduler.tick()).enqueued.map((slot) => slot.slot)).toEqual([
      T0 + 9 * MINUTE,
      T0 + 10 * MINUTE,
    ]);
  });

  it('catchUp.neverRun other than none or an integer from 0 to 1000 is CONFIG_INVALID', () => {
    const { driver } = memoryOnManualClock();
    for (const neverRun of ['all', -1, 1.5, 1_001]) {
      const error = thrown(() =>
        createScheduler({
          driver,
          schedules: [everyMinute],
          catchUp: { neverRun: neverRun as 'none' },
        }),
      );
      expect(isBerthError(error, 'CONFIG_INVALID'), String(neverRun)).toBe(true);
      if (isBerthError(error, 'CONFIG_INVALID')) expect(error.meta.option).toBe('catchUp.neverRun');
    }
  });

  it('enqueues only slots after the lead was taken with catchUp.maxSlots 0', async () => {
    const { driver, clock } = memoryOnManualClock();
    const scheduler = createScheduler({
      driver,
      schedules: [everyMinute],
      catchUp: { maxSlots: 0 },
      leaseTtlMs: 10 * MINUTE,
    });
    await clock.set(T0 + 30_000);

    expect((await scheduler.tick()).enqueued).toEqual([]);
    await clock.set(T0 + 3 * MINUTE);
    expect((await scheduler.tick()).enqueued.map((slot) => slot.slot)).toEqual([
      T0 + MINUTE,
      T0 + 2 * MINUTE,
      T0 + 3 * MINUTE,
    ]);
  });

  it('reads the cron expression in the schedule timezone', async () => {
    const { driver, clock } = memoryOnManualClock();
    const scheduler = createScheduler({
      driver,
      schedules: [{ name: 'nine', cron: '0 9 * * *', timezone: 'America/New_York', job: 'nine' }],
      catchUp: { maxSlots: 0 },
      leaseTtlMs: 24 * 60 * MINUTE,
    });
    await scheduler.tick();
    await clock.set(Date.UTC(2026, 0, 1, 14, 0, 0));

    expect((await scheduler.tick()).enqueued.map((slot) => slot.slot)).toEqual([
      Date.UTC(2026, 0, 1, 14, 0, 0),
    ]);
  });

  it('answers CONFIG_INVALID for an invalid cron expression, timezone or repeated name', () => {
    const { driver } = memoryOnManualClock();
    const make =
      (schedules: NonNullable<Parameters<typeof createScheduler>[0]['schedules']>) => () =>
        createScheduler({ driver, schedules });

    const badCron = thrown(make([{ name: 'x', cron: 'every day', job: 'x' }]));
    const badZone = thrown(
      make([{ name: 'x', cron: '* * * * *', timezone: 'Mars/Olympus', job: 'x' }]),
    );
    const repeated = thrown(
      make([
        { name: 'x', cron: '* * * * *', job: 'x' },
        { name: 'x', cron: '0 * * * *', job: 'y' },
      ]),
    );

    expect(isBerthError(badCron, 'CONFIG_INVALID') && badCron.meta.option).toBe(
      'schedules[0].cron',
    );
    expect(isBerthError(badZone, 'CONFIG_INVALID')).toBe(true);
    expect(isBerthError(repeated, 'CONFIG_INVALID') && repeated.meta.option).toBe(
      'schedules[1].name',
    );
  });

  it('takes a cron of 5 or 6 fields only: 4 or 7 fields answer CONFIG_INVALID naming the count', () => {
    const { driver } = memoryOnManualClock();
    for (const cron of ['*/5 * * *', '0 0 12 * * 1 2026', '*', '  ']) {
      const error = thrown(() =>
        createScheduler({ driver, schedules: [{ name: 'x', cron, job: 'x' }] }),
      );
      expect(isBerthError(error, 'CONFIG_INVALID') && error.meta.option, cron).toBe(
        'schedules[0].cron',
      );
    }
    const fourFields = thrown(() =>
      createScheduler({ driver, schedules: [{ name: 'x', cron: '*/5 * * *', job: 'x' }] }),
    );
    expect(isBerthError(fourFields) && fourFields.detail).toContain('has 4 fields');
    for (const cron of ['*/5 * * * *', '0 */5 * * * *', '  0 9 * * 1-5 ']) {
      expect(() =>
        createScheduler({ driver, schedules: [{ name: 'x', cron, job: 'x' }] }),
      ).not.toThrow();
    }
  });

  it('answers CONFIG_INVALID for a job request the driver would refuse, and for bad timings', () => {
    const { driver } = memoryOnManualClock();

    const badJob = thrown(() =>
      createScheduler({ driver, schedules: [{ name: 'x', cron: '* * * * *', job: '' }] }),
    );
    const badLease = thrown(() =>
      createScheduler({ driver, schedules: [], tickMs: 5_000, leaseTtlMs: 5_000 }),
    );
    const badCatchUp = thrown(() =>
      createScheduler({ driver, schedules: [], catchUp: { maxSlots: -1 } }),
    );

    expect(isBerthError(badJob, 'CONFIG_INVALID') && badJob.meta.option).toBe('schedules[0].job');
    expect(isBerthError(badLease, 'CONFIG_INVALID') && badLease.meta.option).toBe('leaseTtlMs');
    expect(isBerthError(badCatchUp, 'CONFIG_INVALID') && badCatchUp.meta.option).toBe(
      'catchUp.maxSlots',
    );
  });
});
