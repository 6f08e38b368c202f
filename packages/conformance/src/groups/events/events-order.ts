import { createManualClock } from '@berth/core';
import { expect } from 'vitest';
import type { KitCase } from '../../kit.js';

/** D5: events read in publish order, never by `publishedAt` (the events group runs these). */
export const eventsOrderCases: readonly KitCase[] = [
  {
    title:
      'list and find answer publish order even when a publisher clock is behind: publishedAt filters, never orders',
    run: async ({ driver, clock, t0, sibling }) => {
      await clock.advance(1_000);
      const ahead = await driver.events.publish('paid', { n: 1 });
      const behind = await sibling(createManualClock(t0));
      const late = await behind.events.publish('paid', { n: 2 });
      const other = await behind.events.publish('shipped', { n: 3 });
      const last = await driver.events.publish('paid', { n: 4 });
      expect(late.publishedAt).toBe(t0);
      expect(ahead.publishedAt).toBe(t0 + 1_000);
      expect(await driver.events.list()).toEqual([ahead, late, other, last]);
      expect(await driver.events.list('paid')).toEqual([ahead, late, last]);
      expect(await behind.events.list('paid')).toEqual([ahead, late, last]);
      expect(await driver.events.find('paid', { after: 0 })).toEqual(ahead);
      expect(await driver.events.find('paid', { after: t0 })).toEqual(ahead);
      expect(await behind.events.find('paid', { after: 0 })).toEqual(ahead);
      expect(await driver.events.find('paid', { after: t0 + 1 })).toEqual(ahead);
      expect(await driver.events.find('paid', { after: t0 + 1_001 })).toBeUndefined();
      expect(await driver.events.find('paid', { after: 0, match: { n: 2 } })).toEqual(late);
    },
  },
];
