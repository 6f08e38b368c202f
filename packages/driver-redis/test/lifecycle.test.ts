import { createManualClock, type Driver, isBerthError } from '@berth/core';
import { serverUrl } from '@berth/test-servers';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createRedisDriver } from '../src/index.js';
import { keysFor } from '../src/keys.js';
import { LIFECYCLE_APPROX_FROM } from '../src/lua/lifecycle.js';
import { claimed } from './claimed-job.js';
import { losingConnection } from './losing-connection.js';
import { adminRedis, dropPrefix, freshPrefix, redisDriver } from './redis-factory.js';

const admin = adminRedis();
const streamOf = (prefix: string) => keysFor(prefix).lifecycle();

/** `jobs` jobs enqueued, claimed and acked in one batch each: two events per job. */
async function burn(driver: Driver, jobs: number): Promise<void> {
  await driver.enqueueMany(
    Array.from({ length: jobs }, (_, index) => ({ name: 'burn', queue: 'q', payload: { index } })),
  );
  const taken = await driver.claim({
    queues: ['q'],
    workerId: 'w',
    visibilityTimeoutMs: 60_000,
    limit: jobs,
  });
  await driver.ackMany(
    taken.map((job) => ({ fence: { jobId: job.id, workerId: 'w', claim: job.claim } })),
  );
}

async function refusal(read: Promise<unknown>): Promise<unknown> {
  try {
    await read;
  } catch (error) {
    return error;
  }
  throw new Error('expected the read to be refused');
}

describe('redis lifecycle stream', () => {
  it(`below a retention of ${LIFECYCLE_APPROX_FROM} each write trims exactly: the stream holds the newest retention events`, async () => {
    const { driver, prefix, dispose } = await redisDriver({ lifecycleRetention: 16 });
    try {
      await burn(driver, 30);
      expect(await admin().xlen(streamOf(prefix))).toBe(16);
      const page = await driver.lifecycle.read({ limit: 100 });
      expect(page.events.map((event) => event.type)).toEqual(Array(16).fill('completed'));
      expect(page.caughtUp).toBe(true);
    } finally {
      await dispose();
    }
  });

  it(`from a retention of ${LIFECYCLE_APPROX_FROM} each write trims whole nodes: the stream holds at least the retention and under twice it, and trim() answers 0`, async () => {
    const retention = LIFECYCLE_APPROX_FROM;
    const { driver, prefix, dispose } = await redisDriver({ lifecycleRetention: retention });
    try {
      for (let round = 0; round < 10; round += 1) {
        await burn(driver, 97);
        const length = await admin().xlen(streamOf(prefix));
        expect(length).toBeGreaterThanOrEqual(Math.min(retention, (round + 1) * 194));
        expect(length).toBeLessThan(2 * retention);
      }
      expect(await driver.lifecycle.trim({ limit: 1_000 })).toBe(0);
    } finally {
      await dispose();
    }
  });

  it('a position whose event was trimmed reads on from the oldest kept event after it', async () => {
    const { driver, dispose } = await redisDriver({ lifecycleRetention: 16 });
    try {
      await burn(driver, 1);
      const first = await driver.lifecycle.end();
      await burn(driver, 20);
      const oldest = (await driver.lifecycle.read({ limit: 1 })).events[0];
      const page = await driver.lifecycle.read({ after: first as string, limit: 1 });
      expect(page.events).toEqual([oldest]);
      expect(page.caughtUp).toBe(false);
    } finally {
      await dispose();
    }
  });

  it('a position is the entry id the server made; at is the driver clock, not the server’s', async () => {
    const clock = createManualClock(1_000);
    const { driver, prefix, dispose } = await redisDriver({ clock });
    try {
      await claimed(driver, { name: 'clocked' });
      const [entry] = await admin().xrange(streamOf(prefix), '-', '+');
      const [event] = (await driver.lifecycle.read()).events;
      expect(event).toMatchObject({ type: 'active', at: 1_000, position: entry?.[0] });
      expect(Number(event?.position.split('-')[0])).toBeGreaterThan(1_000_000_000_000);
    } finally {
      await dispose();
    }
  });

  it('an `after` past the newest event, on an empty stream, with a leading zero or over 64 bits is JOB_PAGE_INVALID', async () => {
    const { driver, dispose } = await redisDriver();
    try {
      const invalid = (after: string) =>
        refusal(driver.lifecycle.read({ after })).then((error) =>
          expect(isBerthError(error, 'JOB_PAGE_INVALID'), String(error)).toBe(true),
        );
      await invalid('0-1');
      await claimed(driver, { name: 'positions' });
      const end = (await driver.lifecycle.end()) as string;
      const [ms, seq] = end.split('-').map(BigInt) as [bigint, bigint];
      await invalid(`${ms}-${seq + 1n}`);
      await invalid(`${ms + 1n}-0`);
      await invalid(`0${end}`);
      await invalid('18446744073709551616-0');
      await invalid('18446744073709551615-18446744073709551615');
      await invalid(`${end}-0`);
      // Every well-formed id up to the newest reads on: it may be one since trimmed.
      expect((await driver.lifecycle.read({ after: '0-0' })).events).toHaveLength(1);
      expect(await driver.lifecycle.read({ after: end })).toEqual({
        events: [],
        next: end,
        caughtUp: true,
      });
    } finally {
      await dispose();
    }
  });

  it('an ack, nack or suspend whose answer was lost, run again, writes no second event: the fence refuses the rerun', async () => {
    const url = await serverUrl('redis');
    const prefix = freshPrefix();
    const redis = new Redis(url);
    const { proxy, state } = losingConnection(redis);
    const driver = createRedisDriver({ redis: proxy, prefix });
    const types = async (jobId: string) =>
      (await driver.lifecycle.read({ jobId })).events.map((event) => event.type);
    /** The call's first answer lost (DRIVER_UNAVAILABLE), then the call made again. */
    const lostThenAgain = async (call: () => Promise<boolean>) => {
      state.lose = 1;
      const refused = await call().catch((error: unknown) => error);
      expect(isBerthError(refused, 'DRIVER_UNAVAILABLE')).toBe(true);
      expect(await call()).toBe(false);
    };
    try {
      const acked = await claimed(driver, { name: 'acked' });
      await lostThenAgain(() => driver.ack(acked.fence));
      expect(await types(acked.id)).toEqual(['active', 'completed']);

      const nacked = await claimed(driver, { name: 'nacked' });
      // Retried later, so the next job claimed is the next one enqueued.
      const retryAt = Date.now() + 60_000;
      await lostThenAgain(() => driver.nack(nacked.fence, { error: { message: 'no' }, retryAt }));
      expect(await types(nacked.id)).toEqual(['active', 'retried']);

      const slept = await claimed(driver, { name: 'slept' });
      await lostThenAgain(() => driver.suspend(slept.fence, { until: Date.now() + 60_000 }));
      expect(await types(slept.id)).toEqual(['active', 'suspended']);
    } finally {
      await driver.close();
      redis.disconnect();
      await dropPrefix(url, prefix);
    }
  });

  it('a claim given back after its answer was lost leaves its active event; the claim that takes the row again writes active for the same attempt', async () => {
    const url = await serverUrl('redis');
    const prefix = freshPrefix();
    const redis = new Redis(url);
    const { proxy, state } = losingConnection(redis);
    const driver = createRedisDriver({ redis: proxy, prefix });
    try {
      const { id } = await driver.enqueue({ name: 'given-back', queue: 'q' });
      const request = { queues: ['q'], workerId: 'w', visibilityTimeoutMs: 60_000 };
      state.lose = 1;
      await expect(driver.claim(request)).rejects.toThrow();
      expect(await driver.get(id)).toMatchObject({ state: 'ready', attempts: 0 });
      await driver.claim(request);
      const events = (await driver.lifecycle.read({ jobId: id })).events;
      expect(events.map((event) => `${event.type}@${event.attempt}`)).toEqual([
        'active@1',
        'active@1',
      ]);
    } finally {
      await driver.close();
      redis.disconnect();
      await dropPrefix(url, prefix);
    }
  });
});
