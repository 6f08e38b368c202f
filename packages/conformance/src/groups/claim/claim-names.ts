import type { ClaimRequest } from '@berth/core';
import { expect } from 'vitest';
import { expectRefusal } from '../../assert.js';
import type { KitCase } from '../../kit.js';
import { claimExactly, LEASE_MS, mustGet, WORKER } from '../fixtures/index.js';

const claimNames = (names: readonly string[], limit = 10): ClaimRequest => ({
  queues: ['default'],
  workerId: WORKER,
  visibilityTimeoutMs: LEASE_MS,
  limit,
  names,
});

export const claimNamesCases: readonly KitCase[] = [
  {
    title:
      'with names, claim hands out only rows of those job names, in claim order; rows of other names stay ready',
    run: async ({ driver, t0 }) => {
      const a1 = await driver.enqueue({ name: 'a' });
      const b1 = await driver.enqueue({ name: 'b', priority: 9 });
      const c1 = await driver.enqueue({ name: 'c', priority: 5 });
      const a2 = await driver.enqueue({ name: 'a', runAt: t0 - 1_000 });
      const b2 = await driver.enqueue({ name: 'b' });
      const first = await driver.claim(claimNames(['a', 'c'], 2));
      expect(first.map((job) => job.id)).toEqual([c1.id, a2.id]);
      const rest = await driver.claim(claimNames(['a', 'c']));
      expect(rest.map((job) => job.id)).toEqual([a1.id]);
      expect(await driver.claim(claimNames(['a', 'c']))).toEqual([]);
      for (const id of [b1.id, b2.id]) expect((await mustGet(driver, id)).state).toBe('ready');
      const others = await driver.claim(claimNames(['b']));
      expect(others.map((job) => job.id)).toEqual([b1.id, b2.id]);
    },
  },
  {
    title: 'rows a names filter leaves behind are counted ready in stats',
    run: async ({ driver }) => {
      await driver.enqueue({ name: 'known' });
      await driver.enqueue({ name: 'new-type' });
      await driver.enqueue({ name: 'new-type' });
      expect(await driver.claim(claimNames(['known']))).toHaveLength(1);
      const [stats] = await driver.stats();
      expect(stats?.counts).toMatchObject({ ready: 2, running: 1 });
      expect(await driver.claim(claimNames(['known']))).toEqual([]);
    },
  },
  {
    title:
      'with names, a lapsed lease is re-handed and a final-attempt lapse buried only for those names',
    run: async ({ driver, clock }) => {
      const mine = await driver.enqueue({ name: 'mine', maxAttempts: 1 });
      const theirs = await driver.enqueue({ name: 'theirs', maxAttempts: 1 });
      const retried = await driver.enqueue({ name: 'theirs-retry', maxAttempts: 3 });
      await claimExactly(driver, 'default', mine.id, WORKER, 1_000);
      await claimExactly(driver, 'default', theirs.id, WORKER, 1_000);
      await claimExactly(driver, 'default', retried.id, WORKER, 1_000);
      await clock.advance(1_000);
      const buried: string[] = [];
      const claimed = await driver.claim({
        ...claimNames(['mine']),
        onExhausted: (rows) => buried.push(...rows.map((row) => row.id)),
      });
      expect(claimed).toEqual([]);
      expect(buried).toEqual([mine.id]);
      expect((await mustGet(driver, mine.id)).state).toBe('dead');
      expect((await mustGet(driver, theirs.id)).state).toBe('running');
      expect((await mustGet(driver, retried.id)).claim).toBe(1);
      const again = await driver.claim(claimNames(['theirs-retry']));
      expect(again.map((job) => [job.id, job.claim, job.attempts])).toEqual([[retried.id, 2, 2]]);
    },
  },
  {
    title: 'claim with names [] throws JOB_INVALID naming names, and claims nothing',
    run: async ({ driver }) => {
      const { id } = await driver.enqueue({ name: 'task' });
      const before = await mustGet(driver, id);
      await expectRefusal(driver.claim(claimNames([])), 'JOB_INVALID', { field: 'names' });
      for (const bad of [[''], 'task', [7]]) {
        const request = { ...claimNames([]), names: bad } as unknown as ClaimRequest;
        await expectRefusal(driver.claim(request), 'JOB_INVALID', { field: 'names' });
      }
      expect(await mustGet(driver, id)).toStrictEqual(before);
    },
  },
  {
    title: 'names repeated in the filter count once',
    run: async ({ driver }) => {
      const a = await driver.enqueue({ name: 'a' });
      const b = await driver.enqueue({ name: 'a' });
      const claimed = await driver.claim(claimNames(['a', 'a', 'a'], 5));
      expect(claimed.map((job) => job.id)).toEqual([a.id, b.id]);
    },
  },
];
