import type { Driver, JobRecord } from '@berth/core';
import { expect } from 'vitest';
import { expectRefusal } from '../../assert.js';
import type { KitCase, KitGroup } from '../../kit.js';
import { fenceOf, LEASE_MS, mustGet, WORKER } from '../fixtures/index.js';
import { pauseFleetCases } from './pause-fleet.js';

/** Everything a claim of `queues` hands out, as ids, and what it buried. */
async function claimIds(
  driver: Driver,
  queues: readonly string[],
  names?: readonly string[],
): Promise<{ claimed: string[]; buried: string[] }> {
  const buried: JobRecord[] = [];
  const jobs = await driver.claim({
    queues,
    limit: 10,
    workerId: WORKER,
    visibilityTimeoutMs: LEASE_MS,
    ...(names === undefined ? {} : { names }),
    onExhausted: (rows) => buried.push(...rows),
  });
  return { claimed: jobs.map((job) => job.id), buried: buried.map((job) => job.id) };
}

const enqueueIn = async (driver: Driver, queue: string, extra: { runAt?: number } = {}) =>
  (await driver.enqueue({ name: 'task', payload: { queue }, queue, ...extra })).id;

const pauseCases: readonly KitCase[] = [
  {
    title:
      'a paused queue yields no claims while the other queues of the same claim do; enqueues into it still land ready',
    run: async ({ driver }) => {
      const held = await enqueueIn(driver, 'held');
      const open = await enqueueIn(driver, 'open');
      await driver.pauses.pause('held');
      expect(await claimIds(driver, ['held', 'open'])).toEqual({ claimed: [open], buried: [] });
      const later = await enqueueIn(driver, 'held');
      expect((await mustGet(driver, later)).state).toBe('ready');
      expect(await claimIds(driver, ['held'])).toEqual({ claimed: [], buried: [] });
      expect(await claimIds(driver, ['held'], ['task'])).toEqual({ claimed: [], buried: [] });
      expect((await mustGet(driver, held)).state).toBe('ready');
    },
  },
  {
    title:
      "resume makes the queue's jobs claimable again, in claim order (priority desc, then runAt, then insertion order)",
    run: async ({ driver }) => {
      await driver.pauses.pause('q');
      const low = await enqueueIn(driver, 'q');
      const { id: high } = await driver.enqueue({
        name: 'task',
        payload: {},
        queue: 'q',
        priority: 5,
      });
      expect(await claimIds(driver, ['q'])).toEqual({ claimed: [], buried: [] });
      expect(await driver.pauses.resume('q')).toEqual({ queue: 'q', paused: false });
      expect(await claimIds(driver, ['q'])).toEqual({ claimed: [high, low], buried: [] });
    },
  },
  {
    title:
      'a delayed job of a paused queue still becomes due (reads ready) and is claimed once the queue is resumed',
    run: async ({ driver, clock }) => {
      await driver.pauses.pause('q');
      const id = await enqueueIn(driver, 'q', { runAt: clock.now() + 5_000 });
      expect((await mustGet(driver, id)).state).toBe('delayed');
      await clock.advance(10_000);
      expect((await mustGet(driver, id)).state).toBe('ready');
      expect(await claimIds(driver, ['q'])).toEqual({ claimed: [], buried: [] });
      await driver.pauses.resume('q');
      expect(await claimIds(driver, ['q'])).toEqual({ claimed: [id], buried: [] });
    },
  },
  {
    title:
      'a job running when its queue is paused settles as usual: its ack lands and its lease can be extended',
    run: async ({ driver }) => {
      const id = await enqueueIn(driver, 'q');
      const [job] = await driver.claim({
        queues: ['q'],
        workerId: WORKER,
        visibilityTimeoutMs: LEASE_MS,
      });
      if (job === undefined) throw new Error('expected a claim');
      await driver.pauses.pause('q');
      expect(await driver.extend(fenceOf(job), LEASE_MS)).toBe(true);
      expect(await driver.ack(fenceOf(job), { result: { ok: true } })).toBe(true);
      expect((await mustGet(driver, id)).state).toBe('completed');
    },
  },
  {
    title:
      'a lapsed lease of a paused queue is neither re-claimed nor buried until the queue is resumed',
    run: async ({ driver, clock }) => {
      const retried = (await driver.enqueue({ name: 'task', payload: {}, queue: 'q' })).id;
      const spent = (
        await driver.enqueue({ name: 'last', payload: {}, queue: 'q', maxAttempts: 1 })
      ).id;
      expect((await claimIds(driver, ['q'])).claimed.sort()).toEqual([retried, spent].sort());
      await driver.pauses.pause('q');
      await clock.advance(LEASE_MS + 1_000);
      expect(await claimIds(driver, ['q'])).toEqual({ claimed: [], buried: [] });
      expect((await mustGet(driver, spent)).state).toBe('running');
      await driver.pauses.resume('q');
      expect(await claimIds(driver, ['q'])).toEqual({ claimed: [retried], buried: [spent] });
    },
  },
  {
    title:
      "pause is idempotent: pausing a paused queue answers the first pause's pausedAt and changes nothing; resume of a queue not paused answers { paused: false }",
    run: async ({ driver, clock, t0 }) => {
      expect(await driver.pauses.resume('q')).toEqual({ queue: 'q', paused: false });
      const first = await driver.pauses.pause('q');
      expect(first).toEqual({ queue: 'q', paused: true, pausedAt: t0 });
      await clock.advance(5_000);
      expect(await driver.pauses.pause('q')).toEqual(first);
      expect(await driver.pauses.list()).toEqual([first]);
      expect(await driver.pauses.resume('q')).toEqual({ queue: 'q', paused: false });
      expect(await driver.pauses.resume('q')).toEqual({ queue: 'q', paused: false });
      expect(await driver.pauses.list()).toEqual([]);
      // A new pause after a resume is a new pause: it takes the instant it was made.
      expect(await driver.pauses.pause('q')).toEqual({ ...first, pausedAt: t0 + 5_000 });
    },
  },
  {
    title:
      'list answers every paused queue sorted by name, with its pausedAt; a queue needs no rows to be paused, and a resumed one leaves the list',
    run: async ({ driver, clock, t0 }) => {
      expect(await driver.pauses.list()).toEqual([]);
      await driver.pauses.pause('b');
      await clock.advance(1_000);
      await driver.pauses.pause('a');
      await driver.pauses.pause('c');
      expect(await driver.pauses.list()).toEqual([
        { queue: 'a', paused: true, pausedAt: t0 + 1_000 },
        { queue: 'b', paused: true, pausedAt: t0 },
        { queue: 'c', paused: true, pausedAt: t0 + 1_000 },
      ]);
      await driver.pauses.resume('b');
      expect((await driver.pauses.list()).map((pause) => pause.queue)).toEqual(['a', 'c']);
    },
  },
  {
    title:
      'pause, resume and list refuse a tenantId with JOB_INVALID (field tenantId): a pause holds every tenant, and a refused call changes nothing',
    run: async ({ driver }) => {
      const asTenant = { tenantId: 'acme' };
      await expectRefusal(driver.pauses.pause('q', asTenant), 'JOB_INVALID', { field: 'tenantId' });
      expect(await driver.pauses.list()).toEqual([]);
      await driver.pauses.pause('q');
      await expectRefusal(driver.pauses.resume('q', asTenant), 'JOB_INVALID', {
        field: 'tenantId',
      });
      await expectRefusal(driver.pauses.list(asTenant), 'JOB_INVALID', { field: 'tenantId' });
      expect((await driver.pauses.list()).map((pause) => pause.queue)).toEqual(['q']);
    },
  },
  {
    title: 'pause and resume refuse a queue name enqueue refuses, with JOB_INVALID naming queue',
    run: async ({ driver }) => {
      for (const bad of ['', 'x'.repeat(1_000), 42, 'a\u0000b']) {
        await expectRefusal(driver.pauses.pause(bad as string), 'JOB_INVALID', { field: 'queue' });
        await expectRefusal(driver.pauses.resume(bad as string), 'JOB_INVALID', {
          field: 'queue',
        });
        await expectRefusal(
          driver.enqueue({ name: 'task', payload: {}, queue: bad as string }),
          'JOB_INVALID',
          { field: 'queue' },
        );
      }
      // Unlike enqueue, which defaults its queue, a pause must name one.
      await expectRefusal(driver.pauses.pause(undefined as never), 'JOB_INVALID', {
        field: 'queue',
      });
      expect(await driver.pauses.list()).toEqual([]);
    },
  },
];

export const pauseGroup: KitGroup = {
  name: 'pause',
  cases: [...pauseCases, ...pauseFleetCases],
};
