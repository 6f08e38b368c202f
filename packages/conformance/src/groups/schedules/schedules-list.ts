import { expect } from 'vitest';
import { expectRefusal } from '../../assert.js';
import type { KitCase } from '../../kit.js';
import { createSchedule, positions } from './schedule-fixtures.js';

/** `list`: list order, pages, cursors and the tenant filter. */
export const scheduleListCases: readonly KitCase[] = [
  {
    title:
      'list walks every tenant’s schedules by name in code-unit order, then tenant (none first), in pages of limit; next is given while a page is full',
    run: async ({ driver, t0 }) => {
      for (const [name, tenantId] of [
        ['b', undefined],
        ['a', 'zeta'],
        ['B', undefined],
        ['a', undefined],
        ['a', 'acme'],
        ['é', undefined],
      ] as const) {
        await createSchedule(driver, { name, nextAt: t0, ...(tenantId ? { tenantId } : {}) });
      }
      const all = ['-/B', '-/a', 'acme/a', 'zeta/a', '-/b', '-/é'];
      expect(positions((await driver.schedules.list()).schedules)).toEqual(all);
      const first = await driver.schedules.list({ limit: 4 });
      expect(positions(first.schedules)).toEqual(all.slice(0, 4));
      expect(typeof first.next).toBe('string');
      const second = await driver.schedules.list({ limit: 4, after: first.next as string });
      expect(positions(second.schedules)).toEqual(all.slice(4));
      expect(second.next).toBeUndefined();
    },
  },
  {
    title:
      'list with a tenantId answers only that tenant’s schedules, and its cursor is refused under another tenant or none (JOB_PAGE_INVALID), as is a cursor no page made',
    run: async ({ driver, t0 }) => {
      for (const name of ['c', 'a', 'b']) {
        await createSchedule(driver, { name, tenantId: 'acme', nextAt: t0 });
        await createSchedule(driver, { name, nextAt: t0 });
      }
      const page = await driver.schedules.list({ tenantId: 'acme', limit: 2 });
      expect(positions(page.schedules)).toEqual(['acme/a', 'acme/b']);
      const after = page.next as string;
      const rest = await driver.schedules.list({ tenantId: 'acme', limit: 2, after });
      expect(positions(rest.schedules)).toEqual(['acme/c']);
      await expectRefusal(driver.schedules.list({ limit: 2, after }), 'JOB_PAGE_INVALID');
      await expectRefusal(driver.schedules.list({ tenantId: 'zeta', after }), 'JOB_PAGE_INVALID');
      await expectRefusal(driver.schedules.list({ after: 'not-a-cursor' }), 'JOB_PAGE_INVALID');
      await expectRefusal(driver.schedules.list({ limit: 101 }), 'JOB_INVALID', {
        field: 'limit',
      });
    },
  },
  {
    title: 'a page whose last schedule was removed still leads to the schedules after it',
    run: async ({ driver, t0 }) => {
      for (const name of ['a', 'b', 'c', 'd']) await createSchedule(driver, { name, nextAt: t0 });
      const page = await driver.schedules.list({ limit: 2 });
      expect(await driver.schedules.remove('b', 1)).toBe(true);
      const rest = await driver.schedules.list({ limit: 2, after: page.next as string });
      expect(positions(rest.schedules)).toEqual(['-/c', '-/d']);
    },
  },
];
