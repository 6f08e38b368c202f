import {
  createManualClock,
  DEFAULT_LIFECYCLE_RETENTION,
  type Driver,
  type PurgeRequest,
} from '@berth/core';
import { describe, expect, it } from 'vitest';
import { createContext } from '../src/context.js';
import { keysFor } from '../src/keys.js';
import { purge } from '../src/operator.js';
import { adminRedis, freshPrefix, redisDriver } from './redis-factory.js';

const T0 = Date.UTC(2026, 0, 1);

const admin = adminRedis();

/** Settles one fresh row of `queue` as `how`; answers its id. */
async function settled(driver: Driver, queue: string, how: 'ack' | 'fail') {
  const { id } = await driver.enqueue({ name: 'job', queue });
  const [job] = await driver.claim({ queues: [queue], workerId: 'w', visibilityTimeoutMs: 60_000 });
  if (job?.id !== id) throw new Error('the row was not claimed');
  const fence = { jobId: id, workerId: 'w', claim: job.claim };
  if (how === 'ack') await driver.ack(fence, {});
  else await driver.nack(fence, { error: { message: 'no' }, final: true, deadLetter: false });
  return id;
}

describe('redis purge is bounded', () => {
  it('removes at most its limit per call, oldest finishedAt first over every queue and state, and counts exactly', async () => {
    const clock = createManualClock(T0);
    const prefix = freshPrefix();
    const { driver, dispose } = await redisDriver({ clock }, prefix);
    // Through the backend: core forwards `limit` once it declares it (D1).
    const context = createContext({
      redis: admin(),
      keys: keysFor(prefix),
      clock,
      hooks: {},
      lifecycleRetention: DEFAULT_LIFECYCLE_RETENTION,
    });
    const request = (limit?: number): PurgeRequest & { limit?: number } => ({
      states: ['completed', 'failed'],
      olderThan: T0 + 1_000_000,
      ...(limit === undefined ? {} : { limit }),
    });
    try {
      const order: string[] = [];
      for (let index = 0; index < 25; index += 1) {
        await clock.advance(1);
        order.push(
          await settled(driver, index % 2 === 0 ? 'a' : 'b', index % 3 === 0 ? 'fail' : 'ack'),
        );
      }
      // Rows settled later (and a failed row) that are not old enough stay whatever the limit.
      await clock.set(T0 + 2_000_000);
      const young = await settled(driver, 'a', 'ack');

      expect(await purge(context, request(10))).toBe(10);
      const gone = async () =>
        (await Promise.all(order.map(async (id) => ((await driver.get(id)) ? 1 : 0)))).join('');
      expect(await gone()).toBe(`${'0'.repeat(10)}${'1'.repeat(15)}`);
      expect(await purge(context, request(10))).toBe(10);
      expect(await purge(context, request(10))).toBe(5);
      expect(await purge(context, request(10))).toBe(0);
      expect(await gone()).toBe('0'.repeat(25));
      expect(await driver.get(young)).toBeDefined();
    } finally {
      await dispose();
    }
  });

  it('without a limit removes at most 1,000 per call', async () => {
    const clock = createManualClock(T0);
    const prefix = freshPrefix();
    const { driver, dispose } = await redisDriver({ clock }, prefix);
    const context = createContext({
      redis: admin(),
      keys: keysFor(prefix),
      clock,
      hooks: {},
      lifecycleRetention: DEFAULT_LIFECYCLE_RETENTION,
    });
    try {
      for (let first = 0; first < 1_200; first += 600) {
        await driver.enqueueMany(Array.from({ length: 600 }, () => ({ name: 'job', queue: 'q' })));
        const jobs = await driver.claim({
          queues: ['q'],
          workerId: 'w',
          visibilityTimeoutMs: 60_000,
          limit: 600,
        });
        await driver.ackMany(
          jobs.map((job) => ({ fence: { jobId: job.id, workerId: 'w', claim: job.claim } })),
        );
      }
      await clock.advance(10);
      const all = { states: ['completed'] as const, olderThan: clock.now() };
      expect(await purge(context, all)).toBe(1_000);
      expect(await purge(context, all)).toBe(200);
    } finally {
      await dispose();
    }
  });
});
