import { createClient, createScheduler, defineJob } from '@berth/core';
import type { GoldenScenario } from '../golden/transcript.js';
import { driveUntil } from './drive.js';
import { withWorker } from './harness.js';

const MINUTE = 60_000;

/** Each job's slot as an offset from t0: its key ends with the slot's ISO instant. */
const slotOf = (key: string | undefined, t0: number): number =>
  Date.parse((key ?? '').split(':').slice(2).join(':')) - t0;

export const storedScheduleSlotsOnce: GoldenScenario = {
  name: 'stored-schedule-slots-once',
  asserts:
    'a schedule stored while two schedulers run is picked up at the next tick by the leader only; a change of cron, a pause and a resume take effect at the next tick; every slot runs exactly once, under its tenant',
  async play(context) {
    const { driver, clock, t0, note } = context;
    const report = defineJob<{ n: number }>({ name: 'report', async run() {} });
    const options = { driver, leaseTtlMs: 5 * MINUTE };
    const a = createScheduler({ ...options, holderId: 'scheduler-a' });
    const b = createScheduler({ ...options, holderId: 'scheduler-b' });
    const schedules = createClient({ driver }).schedules;
    await a.tick();
    await b.tick();
    const stored = await schedules.upsert({
      name: 'minutely',
      cron: '* * * * *',
      job: report,
      payload: { n: 1 },
      tenantId: 'acme',
      catchUp: 1,
    });
    note('stored', { created: stored.created, nextAt: stored.schedule.nextAt });
    const tickBoth = async (label: string) => {
      const first = await a.tick();
      const second = await b.tick();
      note(label, {
        a: first.enqueued.map((slot) => [slot.slot - t0, slot.tenantId ?? null]),
        b: second.enqueued.map((slot) => slot.slot - t0),
      });
    };
    await tickBoth('ticks at once');
    for (const minute of [1, 2]) {
      await clock.set(t0 + minute * MINUTE + 30_000);
      await tickBoth(`ticks at minute ${minute}`);
    }
    const every2 = { name: 'minutely', cron: '*/2 * * * *', job: report, tenantId: 'acme' };
    const changed = await schedules.upsert({ ...every2, payload: { n: 2 } });
    note('cron changed', {
      revision: changed.schedule.revision,
      nextAt: changed.schedule.nextAt,
    });
    for (const minute of [3, 4]) {
      await clock.set(t0 + minute * MINUTE + 30_000);
      await tickBoth(`ticks at minute ${minute}`);
    }
    await schedules.pause('minutely', { tenantId: 'acme' });
    await clock.set(t0 + 6 * MINUTE + 30_000);
    await tickBoth('ticks at minute 6, paused');
    const resumed = await schedules.resume('minutely', { tenantId: 'acme' });
    note('resumed', { nextAt: resumed.nextAt });
    await clock.set(t0 + 8 * MINUTE + 30_000);
    await tickBoth('ticks at minute 8');
    await a.stop();
    await b.stop();
    await withWorker(context, [report], async () => {
      await driveUntil(clock, 'every slot job completed', async () => {
        const { jobs } = await driver.list({ name: 'report', state: 'completed' });
        return jobs.length === 5;
      });
    });
    const { jobs } = await driver.list({ name: 'report' });
    note(
      'report jobs',
      jobs
        .map((job) => ({
          slot: slotOf(job.idempotencyKey, t0),
          tenantId: job.tenantId ?? null,
          payload: job.payload,
          state: job.state,
        }))
        .sort((x, y) => x.slot - y.slot),
    );
  },
};
