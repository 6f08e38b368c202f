import { isBerthError, MAX_ENQUEUE_BATCH } from '@berth/core';
import { serverUrl } from '@berth/test-servers';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createRedisDriver } from '../src/index.js';
import { dropPrefix, freshPrefix } from './redis-factory.js';

/** An app connection that counts the scripts the driver runs on it. */
function countingConnection(redis: Redis) {
  const count = { scripts: 0 };
  const proxy = new Proxy(redis, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      if (property === 'evalsha' || property === 'eval') {
        return (...args: unknown[]) => {
          count.scripts += 1;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return value.bind(target);
    },
  });
  return { proxy, count };
}

describe('redis enqueueMany carries a bounded batch', () => {
  it(`lands ${MAX_ENQUEUE_BATCH} requests in one script and refuses one more before any script runs`, async () => {
    const url = await serverUrl('redis');
    const prefix = freshPrefix();
    const redis = new Redis(url);
    const { proxy, count } = countingConnection(redis);
    const driver = createRedisDriver({ redis: proxy, prefix });
    try {
      const batch = (size: number) =>
        Array.from({ length: size }, (_, index) => ({
          name: 'job',
          queue: 'q',
          payload: { index },
        }));
      const landed = await driver.enqueueMany(batch(MAX_ENQUEUE_BATCH));
      expect(landed).toHaveLength(MAX_ENQUEUE_BATCH);
      const afterFull = count.scripts;
      // One script (two calls only if the server had to be sent the source again).
      expect(afterFull === 1 || afterFull === 2).toBe(true);

      const refused = await driver
        .enqueueMany(batch(MAX_ENQUEUE_BATCH + 1))
        .catch((error: unknown) => error);
      expect(isBerthError(refused, 'JOB_INVALID')).toBe(true);
      expect(count.scripts).toBe(afterFull);
      const stats = await driver.stats();
      expect(stats.find((queue) => queue.queue === 'q')?.counts.ready).toBe(MAX_ENQUEUE_BATCH);
    } finally {
      await driver.close();
      redis.disconnect();
      await dropPrefix(url, prefix);
    }
  });
});
