import { DEFAULT_JOB_PAGE, JOB_STATES, type JobState, type ListRequest } from '@berth/core';
import { expect } from 'vitest';
import { expectRefusal } from '../../assert.js';
import type { KitCase, KitGroup } from '../../kit.js';
import { cursor, enqueueJob, ids, jobIn, LATER, mustGet } from '../fixtures/index.js';
import { listCursorCases } from './list-cursors.js';
import { listPageCases } from './list-pages.js';

const filterCases: readonly KitCase[] = [
  {
    title: 'list answers newest first: createdAt desc, then insertion order desc',
    run: async ({ driver, clock }) => {
      const a = await enqueueJob(driver);
      const b = await enqueueJob(driver, { queue: 'other' });
      const c = await enqueueJob(driver, { runAt: driver.clock.now() + LATER });
      await clock.advance(10);
      const batch = await driver.enqueueMany([{ name: 'kit.job' }, { name: 'kit.job' }]);
      await clock.advance(10);
      const e = await enqueueJob(driver, { runAt: 0 });
      const page = await driver.list();
      expect(ids(page.jobs)).toEqual([e, ...[...batch].reverse().map((row) => row.id), c, b, a]);
      expect(page).not.toHaveProperty('next');
      expect(page).not.toHaveProperty('prev');
    },
  },
  {
    title: 'list rows are the records get answers, with their effective state',
    run: async ({ driver, clock }) => {
      await jobIn(driver, 'running');
      await jobIn(driver, 'dead');
      await jobIn(driver, 'suspended', {}, { waitFor: 'e' });
      await enqueueJob(driver, { runAt: driver.clock.now() + 50, tenantId: 't1' });
      await clock.advance(50);
      const page = await driver.list();
      expect(page.jobs.length).toBe(4);
      for (const job of page.jobs) expect(job).toEqual(await mustGet(driver, job.id));
      expect(page.jobs.map((job) => job.state)).toEqual(['ready', 'suspended', 'dead', 'running']);
    },
  },
  {
    title:
      'list state filters by effective state: a due delayed or suspended job lists under ready',
    run: async ({ driver, clock, t0 }) => {
      const delayed = await enqueueJob(driver, { runAt: t0 + 1_000 });
      const suspended = await jobIn(driver, 'suspended');
      const ready = await enqueueJob(driver);
      expect(ids((await driver.list({ state: 'delayed' })).jobs)).toEqual([delayed]);
      expect(ids((await driver.list({ state: 'suspended' })).jobs)).toEqual([suspended.id]);
      expect(ids((await driver.list({ state: 'ready' })).jobs)).toEqual([ready]);
      await clock.advance(1_000);
      expect(ids((await driver.list({ state: 'ready' })).jobs)).toEqual([ready, delayed]);
      expect((await driver.list({ state: 'delayed' })).jobs).toEqual([]);
      await clock.set(t0 + 1_000 + LATER);
      expect(ids((await driver.list({ state: 'ready' })).jobs)).toEqual([
        ready,
        suspended.id,
        delayed,
      ]);
      expect((await driver.list({ state: 'suspended' })).jobs).toEqual([]);
    },
  },
  {
    title: 'list state answers exactly the jobs in that state, for every state',
    run: async ({ driver }) => {
      const byState = new Map<JobState, string>();
      for (const state of JOB_STATES) byState.set(state, (await jobIn(driver, state)).id);
      for (const state of JOB_STATES) {
        const page = await driver.list({ state });
        expect(ids(page.jobs), state).toEqual([byState.get(state)]);
        expect(page.jobs[0]?.state).toBe(state);
      }
    },
  },
  {
    title: 'list filters by queue, name and tenantId, alone and combined',
    run: async ({ driver }) => {
      const rows = [
        { name: 'mail', queue: 'q1', tenantId: 't1' },
        { name: 'mail', queue: 'q2', tenantId: 't1' },
        { name: 'sms', queue: 'q1', tenantId: 't2' },
        { name: 'mail', queue: 'q1' },
        { name: 'sms', queue: 'q2', tenantId: 't1' },
      ];
      const made = (await driver.enqueueMany(rows)).map((row) => row.id);
      const pick = (...indexes: number[]) => indexes.map((index) => made[index]);
      const listed = async (filter: ListRequest) => ids((await driver.list(filter)).jobs);
      expect(await listed({ queue: 'q1' })).toEqual(pick(3, 2, 0));
      expect(await listed({ name: 'mail' })).toEqual(pick(3, 1, 0));
      expect(await listed({ tenantId: 't1' })).toEqual(pick(4, 1, 0));
      expect(await listed({ queue: 'q1', name: 'mail' })).toEqual(pick(3, 0));
      expect(await listed({ queue: 'q2', name: 'sms', tenantId: 't1' })).toEqual(pick(4));
      expect(await listed({ queue: 'q1', tenantId: 't2', name: 'mail' })).toEqual([]);
      expect(await listed({ queue: 'nowhere' })).toEqual([]);
      const ready = await driver.list({ state: 'ready', queue: 'q2', tenantId: 't1' });
      expect(ids(ready.jobs)).toEqual(pick(4, 1));
    },
  },
  {
    title: `list without a limit answers ${DEFAULT_JOB_PAGE} rows and a next`,
    run: async ({ driver }) => {
      const made = await driver.enqueueMany(
        Array.from({ length: DEFAULT_JOB_PAGE + 3 }, () => ({ name: 'kit.job' })),
      );
      const page = await driver.list();
      expect(ids(page.jobs)).toEqual(
        made
          .map((row) => row.id)
          .reverse()
          .slice(0, DEFAULT_JOB_PAGE),
      );
      expect(typeof page.next).toBe('string');
      expect(page).not.toHaveProperty('prev');
      const rest = await driver.list({ after: cursor(page.next) });
      expect(rest.jobs.length).toBe(3);
      expect(rest).not.toHaveProperty('next');
    },
  },
  {
    title: 'list limit 1 and 500 are accepted; 0, 501, 1.5, -1 and NaN answer JOB_PAGE_INVALID',
    run: async ({ driver }) => {
      await driver.enqueueMany([{ name: 'kit.job' }, { name: 'kit.job' }]);
      expect((await driver.list({ limit: 1 })).jobs.length).toBe(1);
      expect((await driver.list({ limit: 500 })).jobs.length).toBe(2);
      for (const limit of [0, 501, 1.5, -1]) {
        const error = await expectRefusal(driver.list({ limit }), 'JOB_PAGE_INVALID');
        expect(error.meta).toEqual({ reason: 'limit', limit, maxPage: 500 });
      }
      await expectRefusal(driver.list({ limit: Number.NaN }), 'JOB_PAGE_INVALID', {
        reason: 'limit',
      });
    },
  },
  {
    title: 'list of a queue with no rows answers no rows and no cursors',
    run: async ({ driver }) => {
      expect(await driver.list()).toEqual({ jobs: [] });
      await enqueueJob(driver, { queue: 'busy' });
      expect(await driver.list({ queue: 'idle' })).toEqual({ jobs: [] });
    },
  },
];

export const listGroup: KitGroup = {
  name: 'list',
  cases: [...filterCases, ...listPageCases, ...listCursorCases],
};
