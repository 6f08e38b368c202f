import { DEFAULT_EVENT_TTL_MS, isUuid, type Json } from '@berth/core';
import { expect } from 'vitest';
import { expectRefusal } from '../../assert.js';
import type { KitCase, KitGroup } from '../../kit.js';
import { claimJob, jobIn, LATER, LEASE_MS, mustGet, WORKER } from '../fixtures/index.js';
import { eventsFilterCases } from './events-filter.js';
import { eventsOrderCases } from './events-order.js';
import { eventsSinceCases } from './events-since.js';

const publishCases: readonly KitCase[] = [
  {
    title:
      'publish answers id, name, payload, publishedAt now and expiresAt now plus the default ttl',
    run: async ({ driver, clock, t0 }) => {
      await clock.advance(250);
      const event = await driver.events.publish('order.paid', { orderId: 7 });
      expect(event).toStrictEqual({
        id: event.id,
        name: 'order.paid',
        payload: { orderId: 7 },
        publishedAt: t0 + 250,
        expiresAt: t0 + 250 + DEFAULT_EVENT_TTL_MS,
      });
      expect(isUuid(event.id)).toBe(true);
      const other = await driver.events.publish('order.paid', null);
      expect(other.id).not.toBe(event.id);
      expect(other.payload).toBeNull();
    },
  },
  {
    title: 'publish with a ttl answers expiresAt now plus that ttl',
    run: async ({ driver, clock, t0 }) => {
      await clock.advance(10);
      const event = await driver.events.publish('tick', [1, 2], { ttl: 5_000 });
      expect([event.publishedAt, event.expiresAt]).toEqual([t0 + 10, t0 + 5_010]);
      expect(await driver.events.list()).toEqual([event]);
    },
  },
  {
    title:
      'publish with a ttl that is not a positive finite number, or an empty name, answers JOB_INVALID',
    run: async ({ driver }) => {
      for (const ttl of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
        await expectRefusal(driver.events.publish('tick', {}, { ttl }), 'JOB_INVALID', {
          field: 'ttl',
        });
      }
      await expectRefusal(driver.events.publish('', {}), 'JOB_INVALID', { field: 'event name' });
      expect(await driver.events.list()).toEqual([]);
    },
  },
];

const findCases: readonly KitCase[] = [
  {
    title: 'find answers the earliest event of the name with publishedAt at or after `after`',
    run: async ({ driver, clock, t0 }) => {
      const first = await driver.events.publish('paid', { n: 1 });
      const twin = await driver.events.publish('paid', { n: 2 });
      await driver.events.publish('refunded', { n: 0 });
      await clock.advance(10);
      const third = await driver.events.publish('paid', { n: 3 });
      const find = (after: number) => driver.events.find('paid', { after });
      expect(await find(0)).toEqual(first);
      expect(await find(t0)).toEqual(first);
      expect(await find(t0 + 1)).toEqual(third);
      expect(await find(t0 + 10)).toEqual(third);
      expect(await find(t0 + 11)).toBeUndefined();
      expect(await driver.events.find('shipped', { after: 0 })).toBeUndefined();
      expect(twin.publishedAt).toBe(first.publishedAt);
    },
  },
  {
    title:
      'find with match answers events whose payload holds every top-level key of match, deep-equal',
    run: async ({ driver }) => {
      await driver.events.publish('paid', 'not an object');
      await driver.events.publish('paid', [{ order: { id: 1 } }]);
      const one = await driver.events.publish('paid', { order: { id: 1, tags: ['a'] }, kind: 'x' });
      const two = await driver.events.publish('paid', { order: { id: 2 }, kind: 'x', extra: null });
      const find = (match?: Readonly<Record<string, Json>>) =>
        driver.events.find('paid', match === undefined ? { after: 0 } : { after: 0, match });
      expect(await find({ order: { id: 1, tags: ['a'] } })).toEqual(one);
      expect(await find({ order: { id: 1 } })).toBeUndefined();
      expect(await find({ order: { id: 2 } })).toEqual(two);
      expect(await find({ kind: 'x' })).toEqual(one);
      expect(await find({ kind: 'x', order: { id: 2 } })).toEqual(two);
      expect(await find({ extra: null })).toEqual(two);
      expect(await find({ missing: null })).toBeUndefined();
      expect(await find({ order: { tags: ['a'], id: 1 } })).toEqual(one);
      expect(await find({ order: { id: 1, tags: ['a', 'b'] } })).toBeUndefined();
      expect(await find({})).toEqual(one);
      expect((await find(undefined))?.payload).toBe('not an object');
    },
  },
  {
    title: 'an expired event is never found nor listed, purged or not',
    run: async ({ driver, clock, t0 }) => {
      const short = await driver.events.publish('paid', { n: 1 }, { ttl: 1_000 });
      await clock.advance(999);
      expect(await driver.events.find('paid', { after: t0 })).toEqual(short);
      expect(await driver.events.list('paid')).toEqual([short]);
      await clock.advance(1);
      expect(await driver.events.find('paid', { after: t0 })).toBeUndefined();
      expect(await driver.events.list('paid')).toEqual([]);
      expect(await driver.events.list()).toEqual([]);
      const later = await driver.events.publish('paid', { n: 2 });
      expect(await driver.events.find('paid', { after: t0 })).toEqual(later);
    },
  },
  {
    title: 'list answers live events in publish order, all of them or those of one name',
    run: async ({ driver, clock }) => {
      const a1 = await driver.events.publish('a', 1);
      const b1 = await driver.events.publish('b', 1);
      await clock.advance(5);
      const a2 = await driver.events.publish('a', 2);
      const a3 = await driver.events.publish('a', 3);
      expect(await driver.events.list()).toEqual([a1, b1, a2, a3]);
      expect(await driver.events.list('a')).toEqual([a1, a2, a3]);
      expect(await driver.events.list('c')).toEqual([]);
    },
  },
  {
    title: 'purgeExpired removes every expired event and answers how many went',
    run: async ({ driver, clock }) => {
      for (const ttl of [100, 200, 300]) await driver.events.publish('short', ttl, { ttl });
      const kept = await driver.events.publish('long', 0, { ttl: 1_000 });
      expect(await driver.events.purgeExpired()).toBe(0);
      await clock.advance(200);
      expect(await driver.events.purgeExpired()).toBe(2);
      await clock.advance(100);
      expect(await driver.events.purgeExpired()).toBe(1);
      expect(await driver.events.purgeExpired()).toBe(0);
      expect(await driver.events.list()).toEqual([kept]);
    },
  },
];

const wakeCases: readonly KitCase[] = [
  {
    title:
      'publish makes a suspended job waiting for that event due at once, resumed without an attempt',
    run: async ({ driver, clock, t0 }) => {
      const made = await jobIn(driver, 'suspended', { maxAttempts: 1 }, { waitFor: 'order.paid' });
      await clock.advance(100);
      await driver.events.publish('order.paid', { orderId: 1 });
      const due = await mustGet(driver, made.id);
      expect([due.state, due.runAt, due.updatedAt, due.attempts]).toEqual([
        'ready',
        t0 + 100,
        t0 + 100,
        1,
      ]);
      expect(due.waitFor).toBe('order.paid');
      expect((await driver.stats())[0]?.counts.ready).toBe(1);
      const claimed = await driver.claim({
        queues: [made.queue],
        workerId: WORKER,
        visibilityTimeoutMs: LEASE_MS,
      });
      expect(claimed.map((job) => [job.id, job.resumed, job.attempts, job.claim])).toEqual([
        [made.id, true, 1, 2],
      ]);
      expect(claimed[0]).not.toHaveProperty('waitFor');
    },
  },
  {
    title:
      'publish wakes every job waiting for that event and no job waiting for another or for none',
    run: async ({ driver, clock, t0 }) => {
      const q = { queue: 'waits' };
      const a = await jobIn(driver, 'suspended', q, { waitFor: 'paid' });
      const b = await jobIn(driver, 'suspended', q, { waitFor: 'paid' });
      const other = await jobIn(driver, 'suspended', q, { waitFor: 'shipped' });
      const sleeper = await jobIn(driver, 'suspended', q);
      await clock.advance(50);
      await driver.events.publish('paid', {});
      expect((await mustGet(driver, a.id)).state).toBe('ready');
      expect((await mustGet(driver, b.id)).state).toBe('ready');
      for (const parked of [other, sleeper]) {
        const job = await mustGet(driver, parked.id);
        expect([job.state, job.runAt, job.updatedAt]).toEqual(['suspended', t0 + LATER, t0]);
      }
      const claimed = await driver.claim({
        queues: ['waits'],
        limit: 10,
        workerId: WORKER,
        visibilityTimeoutMs: LEASE_MS,
      });
      expect(claimed.map((job) => job.id).sort()).toEqual([a.id, b.id].sort());
    },
  },
  {
    title: 'publish does not touch a job that no longer waits: cancelled or already resumed',
    run: async ({ driver, clock }) => {
      const cancelled = await jobIn(driver, 'suspended', { queue: 'a' }, { waitFor: 'paid' });
      await driver.cancel(cancelled.id);
      const resumed = await jobIn(driver, 'suspended', { queue: 'b' }, { waitFor: 'paid' });
      await clock.advance(LATER);
      await claimJob(driver, resumed.id, 'b');
      const before = [await mustGet(driver, cancelled.id), await mustGet(driver, resumed.id)];
      await clock.advance(10);
      await driver.events.publish('paid', {});
      expect([await mustGet(driver, cancelled.id), await mustGet(driver, resumed.id)]).toEqual(
        before,
      );
    },
  },
];

export const eventsGroup: KitGroup = {
  name: 'events',
  cases: [
    ...publishCases,
    ...findCases,
    ...wakeCases,
    ...eventsSinceCases,
    ...eventsOrderCases,
    ...eventsFilterCases,
  ],
};
