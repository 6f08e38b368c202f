import type { Driver } from '@berth/core';
import { createRedisDriver } from '@berth/driver-redis';
import { parseSentinelUrl } from './sentinel-url.ts';

/**
 * The Redis driver through Redis Sentinel, with the `durability` option when the url carries
 * one: the driver asks the sentinels for the primary and follows it through every failover.
 */
export function openSentinelDriver(url: string, prefix: string): Driver {
  const { sentinels, name, durability } = parseSentinelUrl(url);
  return createRedisDriver({
    sentinels,
    name,
    prefix,
    ...(durability === undefined ? {} : { durability }),
  });
}
