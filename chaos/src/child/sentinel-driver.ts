import type { Driver } from '@berth/core';
import { createRedisDriver } from '@berth/driver-redis';
import { Redis } from 'ioredis';
import { parseSentinelUrl } from './sentinel-url.ts';

/**
 * The Redis driver over a Sentinel-managed primary, the way an app builds it today: an ioredis
 * Sentinel client made by hand with the settings of the connection the driver opens from a URL
 * (no resend of a call that may have run, calls fail rather than wait). The driver never closes
 * an app's connection, so `close()` here also disconnects it.
 */
export function openSentinelDriver(url: string, prefix: string): Driver {
  const target = parseSentinelUrl(url);
  if (target.durability !== undefined) {
    throw new Error('the redis driver has no durability option yet: run without it');
  }
  const redis = new Redis({
    sentinels: target.sentinels.map(({ host, port }) => ({ host, port })),
    name: target.name,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    enableOfflineQueue: true,
    commandTimeout: 10_000,
    retryStrategy: (times) => Math.min(times * 50, 1_000),
    sentinelRetryStrategy: (times) => Math.min(times * 50, 1_000),
  });
  redis.on('error', () => {});
  const driver = createRedisDriver({ redis, prefix });
  return { ...driver, close: () => driver.close().finally(() => redis.disconnect()) };
}
