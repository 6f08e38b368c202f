import { MAX_PAYLOAD_DEPTH, type ScheduleRecord } from '@berth/core';
import { expect } from 'vitest';
import { expectRefusal } from '../../assert.js';
import type { KitCase, KitGroup } from '../../kit.js';
import { createSchedule, positions, scheduleWrite } from './schedule-fixtures.js';
import { scheduleListCases } from './schedules-list.js';
import { scheduleRaceCases } from './schedules-races.js';

const storeCases: readonly KitCase[] = [
  {
    title:
      'put at revision 0 creates the schedule at revision 1 with createdAt = updatedAt = now; get answers exactly what put answered',
    run: async ({ driver, t0 }) => {
      const write = {
        name: 'nightly',
        cron: '0 3 * * *',
        timezone: 'Europe/Berlin',
        job: 'report',
        queue: 'reports',
        payload: { scope: 'daily', n: 1.5 },
        priority: 4,
        maxAttempts: 2,
        paused: false,
        nextAt: t0 + 60_000,
      };
      const stored = await driver.schedules.put(write, 0);
      const expected: ScheduleRecord = { ...write, revision: 1, createdAt: t0, updatedAt: t0 };
      expect(stored).toEqual(expected);
      expect(await driver.schedules.get('nightly')).toEqual(expected);
      expect(await driver.schedules.get('other')).toBeUndefined();
    },
  },
  {
    title:
      'optional fields left out are absent from every answer, and the payload defaults to null',
    run: async ({ driver, t0 }) => {
      const stored = await driver.schedules.put(
        { name: 'bare', cron: '* * * * *', job: 'tick', paused: false, nextAt: t0 } as never,
        0,
      );
      const expected = {
        name: 'bare',
        cron: '* * * * *',
        job: 'tick',
        payload: null,
        paused: false,
        nextAt: t0,
        revision: 1,
        createdAt: t0,
        updatedAt: t0,
      };
      expect(stored).toStrictEqual(expected);
      expect(await driver.schedules.get('bare')).toStrictEqual(expected);
    },
  },
  {
    title:
      'put lands only at the stored revision: a second create is refused, an update at the stored revision lands at revision + 1 keeping createdAt, and a stale one changes nothing',
    run: async ({ driver, clock, t0 }) => {
      const first = await createSchedule(driver, { name: 'n', nextAt: t0 });
      expect(await driver.schedules.put(scheduleWrite({ name: 'n', nextAt: t0 + 1 }), 0)).toBe(
        undefined,
      );
      await clock.advance(1_000);
      const second = await driver.schedules.put(
        scheduleWrite({ name: 'n', cron: '*/5 * * * *', nextAt: t0 + 300_000 }),
        1,
      );
      expect(second).toMatchObject({
        cron: '*/5 * * * *',
        nextAt: t0 + 300_000,
        revision: 2,
        createdAt: first.createdAt,
        updatedAt: t0 + 1_000,
      });
      // A retried put whose first answer was lost meets revision 2, as any stale writer does.
      expect(
        await driver.schedules.put(
          scheduleWrite({ name: 'n', cron: '*/5 * * * *', nextAt: t0 + 300_000 }),
          1,
        ),
      ).toBeUndefined();
      expect(await driver.schedules.get('n')).toEqual(second);
    },
  },
  {
    title:
      'remove lands only at the stored revision; a removed name is created again at revision 1',
    run: async ({ driver, clock, t0 }) => {
      await createSchedule(driver, { name: 'n', nextAt: t0 });
      expect(await driver.schedules.remove('n', 2)).toBe(false);
      expect(await driver.schedules.remove('missing', 1)).toBe(false);
      expect(await driver.schedules.remove('n', 1)).toBe(true);
      expect(await driver.schedules.remove('n', 1)).toBe(false);
      expect(await driver.schedules.get('n')).toBeUndefined();
      expect(await driver.schedules.put(scheduleWrite({ name: 'n', nextAt: t0 }), 1)).toBe(
        undefined,
      );
      await clock.advance(500);
      expect(await createSchedule(driver, { name: 'n', nextAt: t0 })).toMatchObject({
        revision: 1,
        createdAt: t0 + 500,
      });
      expect((await driver.schedules.list()).schedules).toHaveLength(1);
    },
  },
  {
    title:
      'tenancy: one name held by no tenant and by two tenants is three schedules; a by-name call sees only its own tenant’s, and one without a tenant only the schedule of none',
    run: async ({ driver, t0 }) => {
      await createSchedule(driver, { name: 'n', nextAt: t0, payload: 'none' });
      await createSchedule(driver, { name: 'n', tenantId: 'acme', nextAt: t0, payload: 'acme' });
      await createSchedule(driver, { name: 'n', tenantId: 'zeta', nextAt: t0, payload: 'zeta' });
      expect((await driver.schedules.get('n'))?.payload).toBe('none');
      expect((await driver.schedules.get('n', { tenantId: 'acme' }))?.payload).toBe('acme');
      expect(await driver.schedules.get('n', { tenantId: 'other' })).toBeUndefined();
      expect(await driver.schedules.remove('n', 1, { tenantId: 'other' })).toBe(false);
      expect(await driver.schedules.remove('n', 1, { tenantId: 'acme' })).toBe(true);
      expect((await driver.schedules.get('n'))?.payload).toBe('none');
      expect(positions((await driver.schedules.list()).schedules)).toEqual(['-/n', 'zeta/n']);
    },
  },
  {
    title:
      'due answers the unpaused schedules with nextAt at or before upTo, by nextAt, then name, then tenant (none first), at most limit',
    run: async ({ driver, t0 }) => {
      await createSchedule(driver, { name: 'late', nextAt: t0 + 10_000 });
      await createSchedule(driver, { name: 'b', nextAt: t0 + 1_000 });
      await createSchedule(driver, { name: 'a', tenantId: 't', nextAt: t0 + 1_000 });
      await createSchedule(driver, { name: 'a', nextAt: t0 + 1_000 });
      await createSchedule(driver, { name: 'first', nextAt: t0 });
      await createSchedule(driver, { name: 'held', nextAt: t0, paused: true });
      await createSchedule(driver, { name: 'edge', nextAt: t0 + 5_000 });
      expect(positions(await driver.schedules.due(t0 + 5_000, 100))).toEqual([
        '-/first',
        '-/a',
        't/a',
        '-/b',
        '-/edge',
      ]);
      expect(positions(await driver.schedules.due(t0 + 5_000, 2))).toEqual(['-/first', '-/a']);
      expect(await driver.schedules.due(t0 - 1, 100)).toEqual([]);
    },
  },
  {
    title: 'a put that moves nextAt or pauses moves the schedule in due; a resume brings it back',
    run: async ({ driver, t0 }) => {
      const stored = await createSchedule(driver, { name: 'n', nextAt: t0 });
      expect(positions(await driver.schedules.due(t0, 10))).toEqual(['-/n']);
      await driver.schedules.put(scheduleWrite({ name: 'n', nextAt: t0 + 60_000 }), 1);
      expect(await driver.schedules.due(t0, 10)).toEqual([]);
      await driver.schedules.put(scheduleWrite({ name: 'n', nextAt: t0, paused: true }), 2);
      expect(await driver.schedules.due(t0 + 120_000, 10)).toEqual([]);
      const resumed = await driver.schedules.put(scheduleWrite({ name: 'n', nextAt: t0 }), 3);
      expect(await driver.schedules.due(t0, 10)).toEqual([resumed]);
      expect(resumed?.createdAt).toBe(stored.createdAt);
    },
  },
  {
    title:
      'puts are screened: a bad cron or zone, an unknown field, a missing paused flag, a payload that is not JSON and a negative revision are JOB_INVALID naming the field; nothing is stored',
    run: async ({ driver, t0 }) => {
      const put = (fields: Record<string, unknown>, revision = 0) =>
        driver.schedules.put(
          { ...scheduleWrite({ name: 'n', nextAt: t0 }), ...fields } as never,
          revision,
        );
      await expectRefusal(put({ cron: '* * *' }), 'JOB_INVALID', { field: 'cron' });
      await expectRefusal(put({ cron: '0 3 * * *', timezone: 'Mars/Olympus' }), 'JOB_INVALID', {
        field: 'cron',
      });
      await expectRefusal(put({ every: '1h' }), 'JOB_INVALID', { field: 'every' });
      await expectRefusal(put({ paused: undefined }), 'JOB_INVALID', { field: 'paused' });
      await expectRefusal(put({ job: '' }), 'JOB_INVALID', { field: 'job' });
      await expectRefusal(put({ nextAt: Number.NaN }), 'JOB_INVALID', { field: 'nextAt' });
      let deep: unknown = 1;
      for (let depth = 0; depth <= MAX_PAYLOAD_DEPTH; depth += 1) deep = [deep];
      await expectRefusal(put({ payload: deep }), 'JOB_INVALID', { field: 'payload' });
      await expectRefusal(put({ payload: { at: new Date(0) } }), 'JOB_INVALID');
      await expectRefusal(put({}, -1), 'JOB_INVALID', { field: 'revision' });
      await expectRefusal(driver.schedules.get(''), 'JOB_INVALID', { field: 'name' });
      await expectRefusal(driver.schedules.due(t0, 0), 'JOB_INVALID', { field: 'limit' });
      expect((await driver.schedules.list()).schedules).toEqual([]);
    },
  },
];

/** Schedules stored by the driver (contract/schedules.ts). */
export const schedulesGroup: KitGroup = {
  name: 'schedules',
  cases: [...storeCases, ...scheduleListCases, ...scheduleRaceCases],
};
