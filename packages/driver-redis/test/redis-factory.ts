import { randomUUID } from 'node:crypto';
import type { DriverFactory } from '@berth/conformance';
import type { Driver } from '@berth/core';
import { dropRedisPrefix, serverUrl } from '@berth/test-servers';
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { createRedisDriver, type RedisDriverOptions } from '../src/index.js';

/** A prefix no other case uses: each case sees only its own keys. */
export const freshPrefix = (): string => `berth-test-${randomUUID().slice(0, 12)}`;

/** Deletes every key of `prefix`. */
export const dropPrefix = dropRedisPrefix;

/**
 * A connection of the test file's own, for reading and writing keys directly: opened before the
 * file's tests, closed after them. Call the answer inside a test.
 */
export function adminRedis(): () => Redis {
  let admin: Redis | undefined;
  beforeAll(async () => {
    admin = new Redis(await serverUrl('redis'));
  });
  afterAll(() => {
    admin?.disconnect();
  });
  return () => {
    if (admin === undefined) throw new Error('adminRedis() answers inside a test, after beforeAll');
    return admin;
  };
}

/** A driver on its own prefix over its own connection; dispose drops its keys and closes it. */
export async function redisDriver(
  options: Omit<RedisDriverOptions, 'url' | 'prefix' | 'redis'> = {},
  prefix = freshPrefix(),
): Promise<{ driver: Driver; url: string; prefix: string; dispose: () => Promise<void> }> {
  const url = await serverUrl('redis');
  const driver = createRedisDriver({ ...options, url, prefix });
  return {
    driver,
    url,
    prefix,
    dispose: async () => {
      await driver.close();
      await dropPrefix(url, prefix);
    },
  };
}

export const redisFactory: DriverFactory = async ({ clock, hooks, lifecycleRetention }) => {
  const { driver, url, prefix, dispose } = await redisDriver({ clock, hooks, lifecycleRetention });
  return {
    driver,
    // Its own connection over the same prefix: another process of the deployment.
    sibling: async (context) => createRedisDriver({ ...context, url, prefix }),
    dispose,
  };
};
