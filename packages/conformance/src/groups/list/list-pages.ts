import type { Driver, ListPage, ManualClock } from '@berth/core';
import { expect } from 'vitest';
import { expectRefusal } from '../../assert.js';
import type { KitCase } from '../../kit.js';
import { cursor, enqueueJob, ids, walkBack, walkForward } from '../fixtures/index.js';

/** `count` jobs over several instants, up to three at each, some enqueued as batches. */
async function spread(
  driver: Driver,
  clock: ManualClock,
  count: number,
  queue = 'default',
): Promise<void> {
  for (let index = 0; index < count; index += 1) {
    if (index % 3 === 2) await clock.advance(1);
    if (index % 3 === 0) await driver.enqueueMany([{ name: 'kit.job', queue }]);
    else await enqueueJob(driver, { queue });
  }
}

const flat = (pages: readonly ListPage[]): string[] => pages.flatMap((page) => ids(page.jobs));

/** A cursor with one character changed. */
function forged(real: string, at: number): string {
  const char = real.charAt(at);
  return `${real.slice(0, at)}${char === 'A' ? 'B' : 'A'}${real.slice(at + 1)}`;
}

export const listPageCases: readonly KitCase[] = [
  {
    title: 'walking every page forward with next answers the whole list exactly once, in order',
    run: async ({ driver, clock }) => {
      for (let round = 0; round < 6; round += 1) {
        await spread(driver, clock, 4);
        await clock.advance(1);
      }
      const whole = ids((await driver.list({ limit: 500 })).jobs);
      expect(whole.length).toBe(24);
      const pages = await walkForward(driver, { limit: 5 });
      expect(pages.map((page) => page.jobs.length)).toEqual([5, 5, 5, 5, 4]);
      expect(flat(pages)).toEqual(whole);
      expect(pages[0]).not.toHaveProperty('prev');
      expect(pages.at(-1)).not.toHaveProperty('next');
      for (const page of pages.slice(1)) expect(typeof page.prev).toBe('string');
    },
  },
  {
    title: 'walking back with prev from the last page answers the whole list exactly once',
    run: async ({ driver, clock }) => {
      for (let round = 0; round < 5; round += 1) {
        await spread(driver, clock, 3);
        await clock.advance(7);
      }
      const whole = ids((await driver.list({ limit: 500 })).jobs);
      const last = (await walkForward(driver, { limit: 4 })).at(-1);
      if (last === undefined) throw new Error('no pages');
      const back = await walkBack(driver, { limit: 4 }, last);
      expect(back.map((page) => page.jobs.length)).toEqual([4, 4, 4]);
      expect([...flat([...back].reverse()), ...ids(last.jobs)]).toEqual(whole);
      expect(back.at(-1)).not.toHaveProperty('prev');
      for (const page of back) expect(typeof page.next).toBe('string');
    },
  },
  {
    title: 'pages have no gaps or repeats when rows are inserted between page reads',
    run: async ({ driver, clock }) => {
      await spread(driver, clock, 12);
      const original = ids((await driver.list({ limit: 500 })).jobs);
      const first = await driver.list({ limit: 5 });
      await clock.advance(1);
      await enqueueJob(driver);
      await enqueueJob(driver);
      const second = await driver.list({ limit: 5, after: cursor(first.next) });
      await enqueueJob(driver);
      const third = await driver.list({ limit: 5, after: cursor(second.next) });
      expect(flat([first, second, third])).toEqual(original);
      expect(third).not.toHaveProperty('next');
      const back: ListPage[] = [];
      for (let at = third.prev; at !== undefined; at = back.at(-1)?.prev) {
        back.push(await driver.list({ limit: 5, before: at }));
        if (back.length === 1) await enqueueJob(driver);
        if (back.length > 10) throw new Error('list never ended walking back');
      }
      const now = ids((await driver.list({ limit: 500 })).jobs);
      expect(now.length).toBe(16);
      expect([...flat([...back].reverse()), ...ids(third.jobs)]).toEqual(now);
    },
  },
  {
    title: 'pages of a filtered list walk the filtered rows only, both ways',
    run: async ({ driver, clock }) => {
      for (let round = 0; round < 4; round += 1) {
        await spread(driver, clock, 3, 'mine');
        await spread(driver, clock, 2, 'theirs');
        await clock.advance(3);
      }
      const whole = ids((await driver.list({ queue: 'mine', limit: 500 })).jobs);
      expect(whole.length).toBe(12);
      const pages = await walkForward(driver, { queue: 'mine', limit: 5 });
      expect(flat(pages)).toEqual(whole);
      const last = pages.at(-1);
      if (last === undefined) throw new Error('no pages');
      const back = await walkBack(driver, { queue: 'mine', limit: 5 }, last);
      expect([...flat([...back].reverse()), ...ids(last.jobs)]).toEqual(whole);
    },
  },
  {
    title:
      'a list of exactly limit rows has no next; one more row gives a last page with prev and no next',
    run: async ({ driver, clock }) => {
      await spread(driver, clock, 5);
      const exact = await driver.list({ limit: 5 });
      expect(exact.jobs.length).toBe(5);
      expect(exact).not.toHaveProperty('next');
      await enqueueJob(driver);
      const first = await driver.list({ limit: 5 });
      const last = await driver.list({ limit: 5, after: cursor(first.next) });
      expect(last.jobs.length).toBe(1);
      expect(last).not.toHaveProperty('next');
      const again = await driver.list({ limit: 5, before: cursor(last.prev) });
      expect(ids(again.jobs)).toEqual(ids(first.jobs));
      expect(again).not.toHaveProperty('prev');
    },
  },
  {
    title: 'a cursor keeps working after the row it was made from is purged',
    run: async ({ driver, clock }) => {
      await spread(driver, clock, 6);
      const first = await driver.list({ limit: 3 });
      const edge = first.jobs.at(-1);
      if (edge === undefined) throw new Error('no rows');
      await driver.cancel(edge.id);
      await clock.advance(1);
      expect(await driver.purge({ states: ['cancelled'], olderThan: clock.now() })).toBe(1);
      const second = await driver.list({ limit: 3, after: cursor(first.next) });
      const whole = ids((await driver.list({ limit: 500 })).jobs);
      expect(ids(second.jobs)).toEqual(whole.slice(2));
    },
  },
  {
    title:
      'a cursor no page produced, or a real one with one character changed, answers JOB_PAGE_INVALID',
    run: async ({ driver, clock }) => {
      await spread(driver, clock, 4);
      const page = await driver.list({ limit: 2 });
      const real = page.next;
      if (real === undefined) throw new Error('no next');
      const fakes = [
        'not-a-cursor',
        '',
        'c1.',
        'c1.MTow.AAAAAAAAAAAAAAAA',
        `${real}x`,
        forged(real, 3),
        forged(real, real.length - 1),
      ];
      for (const fake of fakes) {
        const after = await expectRefusal(driver.list({ after: fake }), 'JOB_PAGE_INVALID');
        expect(after.meta).toEqual({ reason: 'cursor' });
        await expectRefusal(driver.list({ before: fake }), 'JOB_PAGE_INVALID', {
          reason: 'cursor',
        });
      }
      expect((await driver.list({ limit: 2, after: real })).jobs.length).toBe(2);
    },
  },
  {
    title: 'list with both after and before answers JOB_PAGE_INVALID',
    run: async ({ driver, clock }) => {
      await spread(driver, clock, 6);
      const first = await driver.list({ limit: 2 });
      const second = await driver.list({ limit: 2, after: cursor(first.next) });
      const error = await expectRefusal(
        driver.list({ after: cursor(second.next), before: cursor(second.prev) }),
        'JOB_PAGE_INVALID',
      );
      expect(error.meta).toEqual({ reason: 'both-cursors' });
    },
  },
];
