import { LIFECYCLE_READ_SCAN, MAX_LIFECYCLE_PAGE } from '@berth/core';
import { expect } from 'vitest';
import type { KitCase } from '../../kit.js';
import { enqueueAndClaim, fenceOf, freshQueue, WORKER } from '../fixtures/index.js';
import { endOf, kinds, readAll, told } from './lifecycle-support.js';

/** Enqueues `count` jobs into a fresh queue, claims them (one event each) and answers the queue. */
async function claimedBatch(
  driver: Parameters<KitCase['run']>[0]['driver'],
  count: number,
): Promise<{ queue: string; fences: ReturnType<typeof fenceOf>[] }> {
  const queue = freshQueue();
  await driver.enqueueMany(Array.from({ length: count }, () => ({ name: 'bulk', queue })));
  const claimed = await driver.claim({
    queues: [queue],
    workerId: WORKER,
    visibilityTimeoutMs: 60_000,
    limit: count,
  });
  expect(claimed).toHaveLength(count);
  return { queue, fences: claimed.map(fenceOf) };
}

export const lifecycleReadCases: readonly KitCase[] = [
  {
    title: 'an empty stream reads no events, caught up and with no next; end() answers undefined',
    run: async ({ driver }) => {
      expect(await driver.lifecycle.read()).toStrictEqual({ events: [], caughtUp: true });
      expect(await driver.lifecycle.end()).toBeUndefined();
    },
  },
  {
    title:
      'reads filter by queue, name, jobId and tenantId, each narrowing; a tenant reader sees no other tenant’s and no untenanted job’s events',
    run: async ({ driver }) => {
      const acme = await enqueueAndClaim(driver, { name: 'mail', tenantId: 'acme' });
      const globex = await enqueueAndClaim(driver, { name: 'mail', tenantId: 'globex' });
      const none = await enqueueAndClaim(driver, { name: 'sms' });
      const ids = (events: readonly { jobId: string }[]) => events.map((event) => event.jobId);
      expect(ids(await readAll(driver))).toEqual([acme.job.id, globex.job.id, none.job.id]);
      expect(ids(await readAll(driver, { tenantId: 'acme' }))).toEqual([acme.job.id]);
      expect(ids(await readAll(driver, { name: 'mail' }))).toEqual([acme.job.id, globex.job.id]);
      expect(ids(await readAll(driver, { queue: none.job.queue }))).toEqual([none.job.id]);
      expect(ids(await readAll(driver, { jobId: globex.job.id }))).toEqual([globex.job.id]);
      expect(await readAll(driver, { name: 'sms', tenantId: 'acme' })).toEqual([]);
      expect(await readAll(driver, { queue: 'no-such-queue' })).toEqual([]);
    },
  },
  {
    title:
      'pages of limit events chain through next; the last page is caught up and reading on from its next answers nothing, with the same next',
    run: async ({ driver }) => {
      const { fences } = await claimedBatch(driver, 5);
      const first = await driver.lifecycle.read({ limit: 2 });
      expect(first.events).toHaveLength(2);
      expect(first.caughtUp).toBe(false);
      expect(first.next).toBe(first.events[1]?.position);
      const second = await driver.lifecycle.read({ limit: 2, after: first.next });
      const third = await driver.lifecycle.read({ limit: 2, after: second.next });
      expect(second.events).toHaveLength(2);
      expect(second.caughtUp).toBe(false);
      expect(third.events).toHaveLength(1);
      expect(third.caughtUp).toBe(true);
      const paged = [...first.events, ...second.events, ...third.events];
      expect(paged).toStrictEqual(await readAll(driver));
      expect(new Set(paged.map((event) => event.jobId)).size).toBe(5);
      expect(new Set(paged.map((event) => event.position)).size).toBe(5);
      expect(fences).toHaveLength(5);
      const after = await driver.lifecycle.read({ after: third.next });
      expect(after).toStrictEqual({ events: [], next: third.next, caughtUp: true });
    },
  },
  {
    title:
      'end() answers the newest event’s position: reading from it sees only what happens later, in the order it happens',
    run: async ({ driver, clock }) => {
      const first = await enqueueAndClaim(driver);
      const end = await endOf(driver);
      expect((await readAll(driver)).at(-1)?.position).toBe(end);
      expect(await readAll(driver, { after: end })).toEqual([]);
      const second = await enqueueAndClaim(driver);
      await clock.advance(5);
      expect(await driver.ack(first.fence)).toBe(true);
      expect(await driver.ack(second.fence)).toBe(true);
      const later = told(await readAll(driver, { after: end }));
      expect(later.map((event) => [event.jobId, event.type])).toEqual([
        [second.job.id, 'active'],
        [first.job.id, 'completed'],
        [second.job.id, 'completed'],
      ]);
      expect(await endOf(driver)).not.toBe(end);
    },
  },
  {
    title: `a read examines at most LIFECYCLE_READ_SCAN (${LIFECYCLE_READ_SCAN}) events: past that many that do not match it answers none, not caught up, and a next to read on from`,
    run: async ({ driver }) => {
      await claimedBatch(driver, LIFECYCLE_READ_SCAN + 20);
      const wanted = await enqueueAndClaim(driver, { name: 'wanted' });
      const page = await driver.lifecycle.read({ name: 'wanted' });
      expect(page.events).toEqual([]);
      expect(page.caughtUp).toBe(false);
      const rest = await driver.lifecycle.read({ name: 'wanted', after: page.next });
      expect(kinds(told(rest.events))).toEqual(['active@1']);
      expect(rest.events[0]?.jobId).toBe(wanted.job.id);
      expect(rest.caughtUp).toBe(true);
      const limited = await driver.lifecycle.read({ limit: 1 });
      expect(limited.events).toHaveLength(1);
      expect(limited.caughtUp).toBe(false);
    },
  },
  {
    title:
      'a malformed position is JOB_PAGE_INVALID, as is a limit outside 1..MAX_LIFECYCLE_PAGE; a jobId that is not a uuid is JOB_INVALID',
    run: async ({ driver }) => {
      await enqueueAndClaim(driver);
      for (const after of ['not a position', '', '-1', 'x'.repeat(300)]) {
        await expect(driver.lifecycle.read({ after })).rejects.toMatchObject({
          code: 'JOB_PAGE_INVALID',
        });
      }
      for (const limit of [0, MAX_LIFECYCLE_PAGE + 1, 1.5, Number.NaN]) {
        await expect(driver.lifecycle.read({ limit })).rejects.toMatchObject({
          code: 'JOB_PAGE_INVALID',
          meta: { reason: 'limit', maxPage: MAX_LIFECYCLE_PAGE },
        });
      }
      await expect(driver.lifecycle.read({ jobId: 'not-a-uuid' })).rejects.toMatchObject({
        code: 'JOB_INVALID',
      });
      await expect(driver.lifecycle.trim({ limit: 0 })).rejects.toMatchObject({
        code: 'JOB_INVALID',
      });
    },
  },
  {
    title:
      'an event written through one driver is readable through a sibling over the same store at once, and each accepts the other’s positions with the same answer',
    run: async ({ driver, sibling }) => {
      const other = await sibling();
      const { job, fence } = await enqueueAndClaim(other);
      const mine = await readAll(driver);
      expect(kinds(told(mine))).toEqual(['active@1']);
      expect(await readAll(other)).toStrictEqual(mine);
      const position = mine[0]?.position;
      expect(await driver.ack(fence)).toBe(true);
      const fromOther = await other.lifecycle.read({ after: position });
      expect(await driver.lifecycle.read({ after: position })).toStrictEqual(fromOther);
      expect(fromOther.events.map((event) => [event.jobId, event.type])).toEqual([
        [job.id, 'completed'],
      ]);
      expect(await other.lifecycle.end()).toBe(await driver.lifecycle.end());
    },
  },
];
