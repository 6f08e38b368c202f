import { createManualClock, isBerthError } from '@berth/core';
import { serverUrl } from '@berth/test-servers';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createRedisDriver } from '../src/index.js';
import { keysFor } from '../src/keys.js';
import { losingConnection } from './losing-connection.js';
import { dropPrefix, freshPrefix } from './redis-factory.js';

const T0 = Date.UTC(2026, 0, 1);

async function setUp() {
  const url = await serverUrl('redis');
  const prefix = freshPrefix();
  const redis = new Redis(url);
  const clock = createManualClock(T0);
  const { proxy, state } = losingConnection(redis);
  const driver = createRedisDriver({ redis: proxy, prefix, clock });
  const dispose = async () => {
    await driver.close();
    redis.disconnect();
    await dropPrefix(url, prefix);
  };
  return { driver, state, clock, redis, prefix, dispose };
}

const claimRequest = { queues: ['q'], workerId: 'w', visibilityTimeoutMs: 60_000, limit: 10 };

describe('redis claim whose answer is lost', () => {
  it('gives the rows back with no attempt spent, so the next claim takes them as a first attempt', async () => {
    const { driver, state, dispose } = await setUp();
    try {
      const { id } = await driver.enqueue({ name: 'job', queue: 'q' });
      state.lose = 1;
      const refused = await driver.claim(claimRequest).catch((error: unknown) => error);
      expect(isBerthError(refused, 'DRIVER_UNAVAILABLE')).toBe(true);
      expect(state.lost).toBe(1);

      const after = await driver.get(id);
      expect(after).toMatchObject({ state: 'ready', attempts: 0 });
      expect(after?.claimedBy).toBeUndefined();
      const [job] = await driver.claim(claimRequest);
      expect(job).toMatchObject({ id, attempts: 1, resumed: false });
    } finally {
      await dispose();
    }
  });

  it('gives back a resumed suspended row as suspended, so it still resumes without an attempt', async () => {
    const { driver, state, dispose } = await setUp();
    try {
      const { id } = await driver.enqueue({ name: 'job', queue: 'q' });
      const [first] = await driver.claim(claimRequest);
      if (first === undefined) throw new Error('no row claimed');
      await driver.suspend(
        { jobId: id, workerId: 'w', claim: first.claim },
        { until: T0 + 1_000, waitFor: 'go' },
      );
      await driver.events.publish('go', {});
      state.lose = 1;
      await expect(driver.claim(claimRequest)).rejects.toThrow();
      expect(await driver.get(id)).toMatchObject({ state: 'ready', attempts: 1 });
      const [resumed] = await driver.claim(claimRequest);
      expect(resumed).toMatchObject({ id, attempts: 1, resumed: true });
    } finally {
      await dispose();
    }
  });

  it('gives back a lapsed lease it took again as ready, with only the attempt that ran counted', async () => {
    const { driver, state, clock, dispose } = await setUp();
    try {
      const { id } = await driver.enqueue({ name: 'job', queue: 'q' });
      await driver.claim({ ...claimRequest, visibilityTimeoutMs: 1_000 });
      await clock.advance(2_000);
      state.lose = 1;
      await expect(driver.claim(claimRequest)).rejects.toThrow();
      expect(await driver.get(id)).toMatchObject({ state: 'ready', attempts: 1 });
      const [again] = await driver.claim(claimRequest);
      expect(again).toMatchObject({ id, attempts: 2, resumed: false });
    } finally {
      await dispose();
    }
  });

  it('when giving back fails too, the next claim gives the rows back first', async () => {
    const { driver, state, dispose } = await setUp();
    try {
      const ids = (
        await driver.enqueueMany([
          { name: 'job', queue: 'q' },
          { name: 'job', queue: 'q' },
        ])
      ).map((result) => result.id);
      // The claim and the give-back both lose their answers.
      state.lose = 2;
      await expect(driver.claim(claimRequest)).rejects.toThrow();
      const claimed = await driver.claim(claimRequest);
      expect(claimed.map((job) => job.id).sort()).toEqual([...ids].sort());
      expect(claimed.map((job) => job.attempts)).toEqual([1, 1]);
    } finally {
      await dispose();
    }
  });

  it('keeps no claim note past the run: a settled or re-claimed row leaves the hash of its worker', async () => {
    const { driver, redis, prefix, clock, dispose } = await setUp();
    try {
      const held = (worker: string) => redis.hlen(keysFor(prefix).claims(worker));
      const [a, b] = await driver.enqueueMany([
        { name: 'job', queue: 'q' },
        { name: 'job', queue: 'q' },
      ]);
      const jobs = await driver.claim({ ...claimRequest, visibilityTimeoutMs: 1_000 });
      expect(await held('w')).toBe(2);
      const first = jobs.find((job) => job.id === a?.id);
      if (first === undefined) throw new Error('no row claimed');
      await driver.extend({ jobId: first.id, workerId: 'w', claim: first.claim }, 1_000);
      expect(await held('w')).toBe(2);
      await driver.ack({ jobId: first.id, workerId: 'w', claim: first.claim }, {});
      expect(await held('w')).toBe(1);
      await clock.advance(5_000);
      const [again] = await driver.claim({ ...claimRequest, workerId: 'v' });
      expect(again?.id).toBe(b?.id);
      expect(await held('w')).toBe(0);
      expect(await held('v')).toBe(1);
    } finally {
      await dispose();
    }
  });

  it('gives back nothing once the row was settled by its worker', async () => {
    const { driver, state, dispose } = await setUp();
    try {
      const { id } = await driver.enqueue({ name: 'job', queue: 'q' });
      const [job] = await driver.claim(claimRequest);
      if (job === undefined) throw new Error('no row claimed');
      await driver.ack({ jobId: id, workerId: 'w', claim: job.claim }, {});
      state.lose = 1;
      await expect(driver.claim(claimRequest)).rejects.toThrow();
      expect(await driver.get(id)).toMatchObject({ state: 'completed', attempts: 1 });
    } finally {
      await dispose();
    }
  });
});
