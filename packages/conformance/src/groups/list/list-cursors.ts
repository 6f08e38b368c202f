import type { ListRequest } from '@berth/core';
import { expect } from 'vitest';
import { expectRefusal } from '../../assert.js';
import type { KitCase } from '../../kit.js';
import { cursor, enqueueJob } from '../fixtures/index.js';

/** Two tenants, two queues, two names, two states: every filter has rows on both sides. */
async function mixed(driver: Parameters<KitCase['run']>[0]['driver']): Promise<void> {
  for (const tenantId of ['acme', 'globex']) {
    for (const queue of ['mine', 'theirs']) {
      for (const name of ['kit.job', 'kit.other']) {
        for (let copy = 0; copy < 3; copy += 1) {
          const id = await enqueueJob(driver, { tenantId, queue, name });
          if (copy === 0) await driver.cancel(id);
        }
      }
    }
  }
}

const FILTERED: ListRequest = { queue: 'mine', tenantId: 'acme', limit: 1 };

export const listCursorCases: readonly KitCase[] = [
  {
    title:
      'a cursor made by one driver walks the same list on another driver over the same store (two processes of one deployment)',
    run: async ({ driver, sibling }) => {
      await mixed(driver);
      const other = await sibling();
      const first = await driver.list(FILTERED);
      const mine = await driver.list({ ...FILTERED, limit: 3, after: cursor(first.next) });
      const theirs = await other.list({ ...FILTERED, limit: 3, after: cursor(first.next) });
      expect(theirs.jobs.map((job) => job.id)).toEqual(mine.jobs.map((job) => job.id));
      expect(theirs.jobs).toHaveLength(3);
      const back = await driver.list({ ...FILTERED, before: cursor(theirs.prev) });
      expect(back.jobs).toEqual(first.jobs);
    },
  },
  {
    title:
      'a cursor of one filtered list, used on a list with any other state, queue, name or tenantId, answers JOB_PAGE_INVALID and the list it came from still walks with it',
    run: async ({ driver }) => {
      await mixed(driver);
      const page = await driver.list(FILTERED);
      const next = cursor(page.next);
      const others: ListRequest[] = [
        { limit: 1 },
        { queue: 'mine', limit: 1 },
        { tenantId: 'acme', limit: 1 },
        { ...FILTERED, queue: 'theirs' },
        { ...FILTERED, tenantId: 'globex' },
        { ...FILTERED, name: 'kit.job' },
        { ...FILTERED, state: 'ready' },
      ];
      for (const other of others) {
        const error = await expectRefusal(
          driver.list({ ...other, after: next }),
          'JOB_PAGE_INVALID',
        );
        expect(error.meta).toEqual({ reason: 'cursor' });
      }
      const second = await driver.list({ ...FILTERED, after: next });
      expect(second.jobs).toHaveLength(1);
      expect(second.jobs[0]).toMatchObject({ queue: 'mine', tenantId: 'acme' });
      expect((await driver.list({ ...FILTERED, limit: 4, after: next })).jobs).toHaveLength(4);
    },
  },
  {
    title:
      'a page’s next cursor used as before, or its prev cursor used as after, answers JOB_PAGE_INVALID',
    run: async ({ driver }) => {
      await mixed(driver);
      const first = await driver.list({ limit: 2 });
      const second = await driver.list({ limit: 2, after: cursor(first.next) });
      await expectRefusal(
        driver.list({ limit: 2, before: cursor(second.next) }),
        'JOB_PAGE_INVALID',
        {
          reason: 'cursor',
        },
      );
      await expectRefusal(
        driver.list({ limit: 2, after: cursor(second.prev) }),
        'JOB_PAGE_INVALID',
        {
          reason: 'cursor',
        },
      );
      const back = await driver.list({ limit: 2, before: cursor(second.prev) });
      expect(back.jobs).toEqual(first.jobs);
    },
  },
];
