import { type ClaimRequest, MAX_CLAIM_BATCH } from '@berth/core';
import { expect } from 'vitest';
import { expectRefusal } from '../../assert.js';
import type { KitCase, KitGroup } from '../../kit.js';
import {
  claimExactly,
  LEASE_MS,
  listAll,
  mustGet,
  OTHER_WORKER,
  recordOf,
  settleTo,
  WORKER,
} from '../fixtures/index.js';
import { claimLapseCases } from './claim-lapse.js';
import { claimNamesCases } from './claim-names.js';
import { claimOrderDueCases } from './claim-order-due.js';
import { claimResumeCases } from './claim-resume.js';
import { claimSiblingsCases } from './claim-siblings.js';

const claimOf = (queues: readonly string[], limit?: number): ClaimRequest => ({
  queues,
  workerId: WORKER,
  visibilityTimeoutMs: LEASE_MS,
  ...(limit === undefined ? {} : { limit }),
});

const basics: readonly KitCase[] = [
  {
    title: 'claim with queues [] throws JOB_INVALID naming queues, and claims nothing',
    run: async ({ driver }) => {
      const { id } = await driver.enqueue({ name: 'task' });
      const before = await mustGet(driver, id);
      await expectRefusal(driver.claim(claimOf([])), 'JOB_INVALID', { field: 'queues' });
      expect(await mustGet(driver, id)).toStrictEqual(before);
    },
  },
  {
    title:
      'claim marks the row running: claim + 1, attempts + 1, claimedBy the worker, visibleAt = now + visibilityTimeoutMs, resumed false',
    run: async ({ driver, clock, t0 }) => {
      const { id } = await driver.enqueue({ name: 'task', payload: { n: 1 } });
      const before = await mustGet(driver, id);
      await clock.advance(1_000);
      const [job] = await driver.claim({
        queues: ['default'],
        workerId: 'w-1',
        visibilityTimeoutMs: 5_000,
      });
      expect(job).toStrictEqual({
        ...before,
        state: 'running',
        attempts: 1,
        claim: 1,
        claimedBy: 'w-1',
        visibleAt: t0 + 6_000,
        updatedAt: t0 + 1_000,
        resumed: false,
      });
      if (job === undefined) return;
      expect(await mustGet(driver, id)).toStrictEqual(recordOf(job));
    },
  },
  {
    title: 'claim takes rows only from the queues it names',
    run: async ({ driver }) => {
      const a = await driver.enqueue({ name: 'task', queue: 'a' });
      await driver.enqueue({ name: 'task', queue: 'b' });
      const c = await driver.enqueue({ name: 'task', queue: 'c' });
      await driver.enqueue({ name: 'task' });
      const claimed = await driver.claim(claimOf(['a', 'c', 'nobody'], 10));
      expect(claimed.map((job) => job.id).sort()).toEqual([a.id, c.id].sort());
      const states = (await listAll(driver)).map((job) => `${job.queue}:${job.state}`).sort();
      expect(states).toEqual(['a:running', 'b:ready', 'c:running', 'default:ready']);
    },
  },
  {
    title: 'claim hands out rows by priority desc, then runAt asc, then insertion order',
    run: async ({ driver, clock, t0 }) => {
      const a = await driver.enqueue({ name: 'a' });
      const b = await driver.enqueue({ name: 'b', priority: 5 });
      const c = await driver.enqueue({ name: 'c', runAt: t0 - 1_000 });
      const d = await driver.enqueue({ name: 'd' });
      const e = await driver.enqueue({ name: 'e', priority: -1, runAt: t0 - 5_000 });
      const f = await driver.enqueue({ name: 'f', priority: 9, runAt: t0 + 1_000 });
      const g = await driver.enqueue({ name: 'g', priority: 5 });
      const first = await driver.claim(claimOf(['default'], 3));
      expect(first.map((job) => job.id)).toEqual([b.id, g.id, c.id]);
      const rest = await driver.claim(claimOf(['default'], 10));
      expect(rest.map((job) => job.id)).toEqual([a.id, d.id, e.id]);
      await clock.advance(1_000);
      expect((await driver.claim(claimOf(['default'], 10))).map((job) => job.id)).toEqual([f.id]);
    },
  },
  {
    title: 'claim takes at most limit rows, and one when limit is omitted',
    run: async ({ driver }) => {
      const ids = [];
      for (let n = 0; n < 5; n += 1) ids.push((await driver.enqueue({ name: `t${n}` })).id);
      expect((await driver.claim(claimOf(['default']))).map((job) => job.id)).toEqual([ids[0]]);
      expect((await driver.claim(claimOf(['default'], 3))).map((job) => job.id)).toEqual(
        ids.slice(1, 4),
      );
      expect((await driver.claim(claimOf(['default'], 3))).map((job) => job.id)).toEqual([ids[4]]);
      expect(await driver.claim(claimOf(['default'], 3))).toEqual([]);
    },
  },
  {
    title: 'a delayed row is not claimable until its runAt comes',
    run: async ({ driver, clock, t0 }) => {
      const { id } = await driver.enqueue({ name: 'later', runAt: t0 + 1_000 });
      expect(await driver.claim(claimOf(['default']))).toEqual([]);
      await clock.advance(999);
      expect(await driver.claim(claimOf(['default']))).toEqual([]);
      expect((await mustGet(driver, id)).claim).toBe(0);
      await clock.advance(1);
      const job = await claimExactly(driver, 'default', id);
      expect(job).toMatchObject({ attempts: 1, claim: 1, resumed: false, runAt: t0 + 1_000 });
    },
  },
  {
    title: 'rows that are completed, failed, dead or cancelled are never claimed',
    run: async ({ driver }) => {
      for (const state of ['completed', 'failed', 'dead', 'cancelled'] as const) {
        const { id } = await driver.enqueue({ name: state });
        await settleTo(driver, id, state);
      }
      const before = await listAll(driver);
      expect(await driver.claim(claimOf(['default'], 10))).toEqual([]);
      expect(await listAll(driver)).toStrictEqual(before);
    },
  },
  {
    title: 'two claims never answer the same row',
    run: async ({ driver }) => {
      const a = await driver.enqueue({ name: 'a' });
      const b = await driver.enqueue({ name: 'b' });
      const first = await driver.claim(claimOf(['default']));
      const second = await driver.claim({ ...claimOf(['default'], 5), workerId: OTHER_WORKER });
      expect(first.map((job) => job.id)).toEqual([a.id]);
      expect(second.map((job) => job.id)).toEqual([b.id]);
      expect(await driver.claim(claimOf(['default'], 5))).toEqual([]);
      expect((await mustGet(driver, a.id)).claimedBy).toBe(WORKER);
      expect((await mustGet(driver, b.id)).claimedBy).toBe(OTHER_WORKER);
    },
  },
  {
    title: 'concurrent claims hand each row to exactly one worker, once',
    timeoutMs: 30_000,
    run: async ({ driver }) => {
      const ids = (
        await driver.enqueueMany(Array.from({ length: 8 }, () => ({ name: 'race' })))
      ).map((answer) => answer.id);
      const workers = Array.from({ length: 12 }, (_, n) => `racer-${n}`);
      const answers = await Promise.all(
        workers.map((workerId) =>
          driver.claim({ queues: ['default'], workerId, visibilityTimeoutMs: LEASE_MS, limit: 2 }),
        ),
      );
      const claimed = answers.flat();
      expect(claimed.map((job) => job.id).sort()).toEqual([...ids].sort());
      for (const [n, jobs] of answers.entries()) {
        for (const job of jobs) {
          expect(job).toMatchObject({ claimedBy: workers[n], claim: 1, attempts: 1 });
          expect(await mustGet(driver, job.id)).toMatchObject({ claimedBy: workers[n], claim: 1 });
        }
      }
    },
  },
  {
    title:
      'claim refuses a bad limit, visibilityTimeoutMs, workerId, queue, dropExhausted or onExhausted with JOB_INVALID naming it',
    run: async ({ driver }) => {
      const { id } = await driver.enqueue({ name: 'task' });
      const before = await mustGet(driver, id);
      const base = claimOf(['default']);
      const bad: ReadonlyArray<readonly [Record<string, unknown>, string]> = [
        [{ limit: 0 }, 'limit'],
        [{ limit: 1.5 }, 'limit'],
        [{ limit: MAX_CLAIM_BATCH + 1 }, 'limit'],
        [{ visibilityTimeoutMs: 0 }, 'visibilityTimeoutMs'],
        [{ visibilityTimeoutMs: -5 }, 'visibilityTimeoutMs'],
        [{ visibilityTimeoutMs: Number.NaN }, 'visibilityTimeoutMs'],
        [{ workerId: '' }, 'workerId'],
        [{ workerId: undefined }, 'workerId'],
        [{ queues: [''] }, 'queues'],
        [{ queues: 'default' }, 'queues'],
        [{ dropExhausted: 'task' }, 'dropExhausted'],
        [{ onExhausted: 'log' }, 'onExhausted'],
      ];
      for (const [change, field] of bad) {
        const request = { ...base, ...change } as unknown as ClaimRequest;
        await expectRefusal(driver.claim(request), 'JOB_INVALID', { field });
      }
      expect(await mustGet(driver, id)).toStrictEqual(before);
    },
  },
];

export const claimGroup: KitGroup = {
  name: 'claim',
  cases: [
    ...basics,
    ...claimResumeCases,
    ...claimLapseCases,
    ...claimNamesCases,
    ...claimSiblingsCases,
    ...claimOrderDueCases,
  ],
};
