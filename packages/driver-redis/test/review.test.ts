import { createManualClock, type Driver, type DriverHooks, isBerthError } from '@berth/core';
import { createMemoryDriver } from '@berth/driver-memory';
import { serverUrl } from '@berth/test-servers';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createRedisDriver } from '../src/index.js';
import { keysFor } from '../src/keys.js';
import { adminRedis, freshPrefix, redisDriver } from './redis-factory.js';

const T0 = Date.UTC(2026, 0, 1);

const admin = adminRedis();

/** A job claimed by worker `w` from queue `q`, and its fence. */
async function claimed(driver: Driver, request: { name: string; idempotencyKey?: string }) {
  const { id, runId } = await driver.enqueue({ ...request, queue: 'q' });
  const [job] = await driver.claim({ queues: ['q'], workerId: 'w', visibilityTimeoutMs: 60_000 });
  expect(job?.id).toBe(id);
  return { id, runId, fence: { jobId: id, workerId: 'w', claim: job?.claim ?? 0 } };
}

/** A dead job holding `key`, whose key is free again. */
async function deadWithKey(driver: Driver, key: string) {
  const made = await claimed(driver, { name: 'keyed', idempotencyKey: key });
  await driver.nack(made.fence, { error: { message: 'no' }, final: true });
  return made;
}

describe('redis driver review', () => {
  it('a requeue whose key a new live row took during its check answers JOB_DUPLICATE, as memory does, and leaves one live holder', async () => {
    const clock = createManualClock(T0);
    const hooks: DriverHooks = {};
    const { driver: redis, dispose } = await redisDriver({ clock, hooks });
    const memory = createMemoryDriver({ clock, hooks });
    try {
      for (const driver of [redis, memory]) {
        const dead = await deadWithKey(driver, 'k');
        let taker: string | undefined;
        hooks.afterRequeueCheck = async () => {
          delete hooks.afterRequeueCheck;
          taker = (await driver.enqueue({ name: 'keyed', idempotencyKey: 'k', queue: 'q' })).id;
        };
        const refusal = await driver.requeue(dead.id).catch((error: unknown) => error);
        expect(isBerthError(refusal, 'JOB_DUPLICATE'), driver.name).toBe(true);
        if (isBerthError(refusal, 'JOB_DUPLICATE'))
          expect(refusal.meta.existingId, driver.name).toBe(taker);
        // The refused requeue changed nothing, and the key still names the row that took it.
        expect((await driver.get(dead.id))?.state, driver.name).toBe('dead');
        const again = await driver.enqueue({ name: 'keyed', idempotencyKey: 'k', queue: 'q' });
        expect(again, driver.name).toMatchObject({ id: taker, deduped: true });
      }
    } finally {
      await memory.close();
      await dispose();
    }
  });

  it('a run with more steps than Lua can unpack at once lists them all and requeue fromStep drops them all', async () => {
    const clock = createManualClock(T0);
    const { driver, dispose } = await redisDriver({ clock });
    try {
      const made = await claimed(driver, { name: 'long' });
      const names = Array.from({ length: 8_200 }, (_, index) => `s${index}`);
      for (let at = 0; at < names.length; at += 500) {
        await Promise.all(
          names.slice(at, at + 500).map((name) =>
            driver.steps.put(
              {
                runId: made.runId,
                name,
                status: 'completed',
                attempts: 1,
                startedAt: T0,
                updatedAt: T0,
              },
              made.fence,
            ),
          ),
        );
      }
      const listed = await driver.steps.list(made.runId);
      expect(listed.map((step) => step.name)).toEqual(names);
      await driver.nack(made.fence, { error: { message: 'no' }, final: true });
      const requeued = await driver.requeue(made.id, { fromStep: 's0' });
      expect(requeued.state).toBe('ready');
      expect(await driver.steps.list(made.runId)).toEqual([]);
    } finally {
      await dispose();
    }
  }, 60_000);

  it('after the wake connection drops and comes back, each listener is woken for its queues, so work enqueued meanwhile is not missed', async () => {
    const { driver, dispose } = await redisDriver();
    try {
      const woke: string[] = [];
      await driver.subscribe?.(['q', 'other'], (queue) => woke.push(queue));
      await admin().call('CLIENT', 'KILL', 'TYPE', 'pubsub');
      // Lands while the wake connection is away: its message is lost.
      await driver.enqueue({ name: 'meanwhile', queue: 'q' });
      await expect.poll(() => woke.includes('q'), { timeout: 5_000 }).toBe(true);
      expect(woke).toContain('other');
    } finally {
      await dispose();
    }
  });

  it('a subscribe after close is refused and opens no connection', async () => {
    const { driver, prefix, dispose } = await redisDriver();
    const channel = keysFor(prefix).wake();
    try {
      await driver.close();
      const refusal = await driver.subscribe?.(['q'], () => {}).catch((error: unknown) => error);
      expect(isBerthError(refusal, 'DRIVER_CLOSED')).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await admin().pubsub('NUMSUB', channel)).toEqual([channel, 0]);
    } finally {
      await dispose();
    }
  });

  it('wakes on an app connection that has an ioredis keyPrefix (the scripts publish under it)', async () => {
    const url = await serverUrl('redis');
    const app = new Redis(url, { keyPrefix: 'app:' });
    const prefix = freshPrefix();
    const driver = createRedisDriver({ redis: app, prefix });
    try {
      const woke: string[] = [];
      await driver.subscribe?.(['q'], (queue) => woke.push(queue));
      const { id } = await driver.enqueue({ name: 'x', queue: 'q' });
      expect((await driver.get(id))?.state).toBe('ready');
      await expect.poll(() => woke, { timeout: 2_000 }).toEqual(['q']);
    } finally {
      await driver.close();
      const left = await admin().keys(`app:{${prefix}}:*`);
      if (left.length > 0) await admin().unlink(...left);
      app.disconnect();
    }
  });
});
