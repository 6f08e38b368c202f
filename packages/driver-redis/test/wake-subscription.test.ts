import { isBerthError } from '@berth/core';
import { serverUrl } from '@berth/test-servers';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createRedisDriver } from '../src/index.js';
import { keysFor } from '../src/keys.js';
import { adminRedis, freshPrefix, redisDriver } from './redis-factory.js';

const admin = adminRedis();

describe('redis wake subscription', () => {
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
