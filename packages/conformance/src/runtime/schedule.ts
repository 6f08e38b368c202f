import { createScheduler, defineJob } from '@berth/core';
import type { GoldenScenario } from '../golden/transcript.js';
import { driveUntil } from './drive.js';
import { withWorker } from './harness.js';

const MINUTE = 60_000;

export const schedulerSlotsOnce: GoldenScenario = {
  name: 'scheduler-slots-once',
  asserts: 'two schedulers elect one leader, and each slot is enqueued and run exactly once',
  async play(context) {
    const { driver, clock, t0, note } = context;
    const ran: string[] = [];
    const report = defineJob({
      name: 'report',
      async run({ job }) {
        ran.push(job.idempotencyKey ?? '(no key)');
      },
    });
    const schedules = [{ name: 'minutely', cron: '* * * * *', job: report, payload: { n: 1 } }];
    const options = {
      driver,
      schedules,
      leaseTtlMs: 5 * MINUTE,
      catchUp: { maxSlots: 2, neverRun: 2 },
    };
    const a = createScheduler({ ...options, holderId: 'scheduler-a' });
    const b = createScheduler({ ...options, holderId: 'scheduler-b' });
    for (const minute of [1, 2, 3]) {
      await clock.set(t0 + minute * MINUTE + 30_000);
      const first = await a.tick();
      const second = await b.tick();
      note(`tick at minute ${minute}`, {
        a: { leader: first.leader, slots: first.enqueued.map((slot) => slot.slot - t0) },
        b: { leader: second.leader, slots: second.enqueued.map((slot) => slot.slot - t0) },
      });
    }
    await a.stop();
    const takeover = await b.tick();
    note('b ticks once a stopped', {
      leader: takeover.leader,
      slots: takeover.enqueued.map((slot) => [slot.slot - t0, slot.deduped]),
    });
    await withWorker(context, [report], async () => {
      await driveUntil(clock, 'every slot job completed', async () => {
        const { jobs } = await driver.list({ name: 'report', state: 'completed' });
        return jobs.length === 4;
      });
    });
    note('slots the worker ran', [...ran].sort());
    const { jobs } = await driver.list({ name: 'report' });
    note(
      'report jobs',
      jobs
        .map((job) => ({ key: job.idempotencyKey ?? null, state: job.state }))
        .sort((x, y) => String(x.key).localeCompare(String(y.key))),
    );
  },
};

export const schedulerSlotAfterPurge: GoldenScenario = {
  name: 'scheduler-slot-after-purge',
  asserts:
    'a slot once enqueued is never enqueued again, even after retention purged its job and a new leader catches up',
  async play(context) {
    const { driver, clock, t0, note } = context;
    const report = defineJob({ name: 'report', async run() {} });
    const schedules = [{ name: 'minutely', cron: '* * * * *', job: report }];
    const options = {
      driver,
      schedules,
      leaseTtlMs: 5 * MINUTE,
      catchUp: { maxSlots: 1, neverRun: 1 },
    };
    const a = createScheduler({ ...options, holderId: 'scheduler-a' });
    await clock.set(t0 + MINUTE + 30_000);
    const first = await a.tick();
    note('a ticks at minute 1', {
      leader: first.leader,
      slots: first.enqueued.map((slot) => slot.slot - t0),
    });
    await a.stop();
    await withWorker(context, [report], async () => {
      await driveUntil(clock, 'the slot job completed', async () => {
        const { jobs } = await driver.list({ name: 'report', state: 'completed' });
        return jobs.length === 1;
      });
    });
    const purged = await driver.purge({ states: ['completed'], olderThan: clock.now() + 1 });
    note('slot job purged', { purged, left: (await driver.list({ name: 'report' })).jobs.length });
    const b = createScheduler({ ...options, holderId: 'scheduler-b' });
    const takeover = await b.tick();
    note('b takes the lead and catches up', {
      leader: takeover.leader,
      slots: takeover.enqueued.map((slot) => slot.slot - t0),
    });
    note('report jobs after the catch-up', (await driver.list({ name: 'report' })).jobs.length);
    await clock.set(t0 + 2 * MINUTE + 30_000);
    const next = await b.tick();
    note('b ticks at minute 2', {
      leader: next.leader,
      slots: next.enqueued.map((slot) => [slot.slot - t0, slot.deduped]),
    });
    await b.stop();
  },
};
