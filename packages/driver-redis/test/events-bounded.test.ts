import {
  type Clock,
  createManualClock,
  DEFAULT_LIFECYCLE_RETENTION,
  type Driver,
} from '@berth/core';
import { describe, expect, it } from 'vitest';
import { createContext } from '../src/context.js';
import { asArray } from '../src/decode.js';
import { createEventStore } from '../src/events.js';
import { keysFor } from '../src/keys.js';
import { WAKE_BATCH } from '../src/lua/events.js';
import { PUBLISH_LUA } from '../src/lua/generated.js';
import { defineScript } from '../src/scripts.js';
import { adminRedis, freshPrefix, redisDriver } from './redis-factory.js';

const T0 = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;
const PUBLISH = defineScript('publish', PUBLISH_LUA);

const admin = adminRedis();

/** Suspends `count` fresh rows of `queue` waiting for `event` (until an hour on). */
async function waiters(driver: Driver, clock: Clock, count: number, event: string, queue = 'q') {
  const ids: string[] = [];
  for (let first = 0; first < count; first += 1_000) {
    const size = Math.min(1_000, count - first);
    await driver.enqueueMany(Array.from({ length: size }, () => ({ name: 'wait', queue })));
    const jobs = await driver.claim({
      queues: [queue],
      workerId: 'w',
      visibilityTimeoutMs: HOUR,
      limit: size,
    });
    for (const job of jobs) {
      ids.push(job.id);
      await driver.suspend(
        { jobId: job.id, workerId: 'w', claim: job.claim },
        { until: clock.now() + HOUR, waitFor: event },
      );
    }
  }
  return ids;
}

/** A job claimed now and suspended for `waitFor` with `eventsSince`; answers its state after. */
let probes = 0;

async function suspendSince(driver: Driver, waitFor: string, eventsSince: number) {
  probes += 1;
  const queue = `since-${probes}`;
  const { id } = await driver.enqueue({ name: 'since', queue });
  const [job] = await driver.claim({
    queues: [queue],
    workerId: 'w',
    visibilityTimeoutMs: HOUR,
  });
  if (job?.id !== id) throw new Error('the probe row was not claimed');
  await driver.suspend(
    { jobId: id, workerId: 'w', claim: job.claim },
    { until: driver.clock.now() + 10 * HOUR, waitFor, eventsSince },
  );
  return (await driver.get(id))?.state;
}

/** A clock a test sets anywhere, backwards too (publishers on skewed clocks). */
function freeClock(start: number) {
  let current = start;
  return {
    now: () => current,
    set: (at: number) => {
      current = at;
    },
  };
}

/** A small seeded generator, so a failure replays. */
function seeded(seed: number) {
  let state = seed;
  return (below: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state % below;
  };
}

describe('redis events', () => {
  it('list and find answer in publish order when publishers run on skewed clocks', async () => {
    const prefix = freshPrefix();
    const ahead = await redisDriver({ clock: createManualClock(T0 + 5_000) }, prefix);
    const behind = await redisDriver({ clock: createManualClock(T0) }, prefix);
    try {
      const first = await ahead.driver.events.publish('order.paid', { n: 1 });
      const second = await behind.driver.events.publish('order.paid', { n: 2 });
      const third = await ahead.driver.events.publish('order.shipped', { n: 3 });
      expect(second.publishedAt).toBeLessThan(first.publishedAt);

      const all = await behind.driver.events.list();
      expect(all.map((event) => event.id)).toEqual([first.id, second.id, third.id]);
      const paid = await behind.driver.events.list('order.paid');
      expect(paid.map((event) => event.id)).toEqual([first.id, second.id]);
      const found = await behind.driver.events.find('order.paid', { after: T0 });
      expect(found?.id).toBe(first.id);
      const matched = await behind.driver.events.find('order.paid', { after: T0, match: { n: 2 } });
      expect(matched?.id).toBe(second.id);
    } finally {
      await behind.driver.close();
      await ahead.dispose();
    }
  });

  it('suspend({ eventsSince }) sees a live event behind 100 newer expired ones', async () => {
    const clock = createManualClock(T0);
    const { driver, dispose } = await redisDriver({ clock });
    try {
      await driver.events.publish('go', { live: true }, { ttl: HOUR });
      for (let index = 0; index < 100; index += 1) {
        clock.advance(1);
        await driver.events.publish('go', { live: false }, { ttl: 10 });
      }
      clock.advance(1_000);
      expect(await suspendSince(driver, 'go', T0)).toBe('ready');
      // Published before eventsSince: the expired ones after it do not count.
      expect(await suspendSince(driver, 'go', T0 + 1)).toBe('suspended');
    } finally {
      await dispose();
    }
  });

  it('suspend({ eventsSince }) answers as a scan of every event would, over random publish times and ttls', async () => {
    const clock = freeClock(T0);
    const { driver, dispose } = await redisDriver({ clock });
    const random = seeded(8);
    try {
      const published: { at: number; expiresAt: number }[] = [];
      for (let index = 0; index < 150; index += 1) {
        clock.set(T0 + random(10_000));
        const event = await driver.events.publish('tick', {}, { ttl: 1 + random(5_000) });
        published.push({ at: event.publishedAt, expiresAt: event.expiresAt });
      }
      const outcomes = new Set<boolean>();
      for (let probe = 0; probe < 40; probe += 1) {
        const now = T0 + random(15_000);
        const since = T0 + random(12_000);
        clock.set(now);
        const expected = published.some((event) => event.at >= since && event.expiresAt > now);
        const state = await suspendSince(driver, 'tick', since);
        expect({ now, since, due: state === 'ready' }).toEqual({ now, since, due: expected });
        outcomes.add(expected);
      }
      // The probes met both answers.
      expect(outcomes).toEqual(new Set([true, false]));
    } finally {
      await dispose();
    }
  }, 60_000);

  it(`publish wakes ${WAKE_BATCH} waiters per script, and every waiter of the event in the end`, async () => {
    const clock = createManualClock(T0);
    const { driver, dispose } = await redisDriver({ clock });
    try {
      const ids = await waiters(driver, clock, 2_500, 'go');
      const event = await driver.events.publish('go', {});
      expect(event.name).toBe('go');
      const rows = await Promise.all(ids.map((id) => driver.get(id)));
      expect(rows.every((row) => row?.state === 'ready')).toBe(true);
    } finally {
      await dispose();
    }
  }, 60_000);

  it('a publisher that stops after its first batch leaves the rest to the claims, and only its own waiters', async () => {
    const clock = createManualClock(T0);
    const prefix = freshPrefix();
    const { driver, dispose } = await redisDriver({ clock }, prefix);
    try {
      const ids = await waiters(driver, clock, 2_500, 'go');
      // Only the publish script runs, as if the publisher died right after it.
      const context = createContext({
        redis: admin(),
        keys: keysFor(prefix),
        clock,
        hooks: {},
        lifecycleRetention: DEFAULT_LIFECYCLE_RETENTION,
      });
      const event = JSON.stringify({
        id: 'x',
        name: 'go',
        payload: {},
        publishedAt: T0,
        expiresAt: T0 + HOUR,
      });
      const [, left] = asArray(
        await context.run(PUBLISH, T0, [
          '00000000-0000-4000-8000-000000000000',
          'go',
          event,
          T0,
          T0 + HOUR,
        ]),
        'publish',
      );
      expect(left).toBe(2_500 - WAKE_BATCH);
      const ready = await Promise.all(ids.map((id) => driver.get(id)));
      expect(ready.filter((row) => row?.state === 'ready')).toHaveLength(WAKE_BATCH);

      // A row that starts waiting for the event after it was published is not woken by it.
      const [late] = await waiters(driver, clock, 1, 'go', 'late');
      const claimed = new Set<string>();
      for (let round = 0; round < 4; round += 1) {
        const jobs = await driver.claim({
          queues: ['q'],
          workerId: 'w',
          visibilityTimeoutMs: HOUR,
          limit: 1_000,
        });
        for (const job of jobs) claimed.add(job.id);
      }
      expect(claimed.size).toBe(ids.length);
      expect(ids.filter((id) => !claimed.has(id))).toEqual([]);
      expect((await driver.get(late ?? ''))?.state).toBe('suspended');
    } finally {
      await dispose();
    }
  }, 60_000);

  it('purgeExpired removes at most its limit, earliest expired first, and answers the exact count', async () => {
    const clock = freeClock(T0);
    const prefix = freshPrefix();
    const { driver, dispose } = await redisDriver({ clock }, prefix);
    // Through the backend: core forwards the limit once it declares it (D2).
    const context = createContext({
      redis: admin(),
      keys: keysFor(prefix),
      clock,
      hooks: {},
      lifecycleRetention: DEFAULT_LIFECYCLE_RETENTION,
    });
    const purge = createEventStore(context).purgeExpired;
    try {
      for (let index = 0; index < 25; index += 1) {
        await driver.events.publish('old', { index }, { ttl: 100 + index });
      }
      await driver.events.publish('old', { index: 'live' }, { ttl: HOUR });
      clock.set(T0 + 1_000);
      expect(await purge({ limit: 10 })).toBe(10);
      clock.set(T0 + 114);
      // What is left expired by then: indexes 10..14; the rest expire later.
      expect(await purge({ limit: 10 })).toBe(5);
      clock.set(T0 + 1_000);
      expect(await purge({ limit: 10 })).toBe(10);
      expect(await purge()).toBe(0);
      expect((await driver.events.list('old')).map((event) => event.payload)).toEqual([
        { index: 'live' },
      ]);
    } finally {
      await dispose();
    }
  });
});
