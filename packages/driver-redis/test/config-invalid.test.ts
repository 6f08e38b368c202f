import { isBerthError } from '@berth/core';
import { configFixProblem } from '@berth/test-servers';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createRedisDriver, type RedisDriverOptions } from '../src/index.js';

type Durability = NonNullable<RedisDriverOptions['durability']>;
type SentinelAddress = NonNullable<RedisDriverOptions['sentinels']>[number];
const sentinels: readonly SentinelAddress[] = [{ host: '127.0.0.1', port: 26379 }];

const refusal = (options: RedisDriverOptions): unknown => {
  try {
    createRedisDriver(options);
  } catch (error) {
    return error;
  }
  throw new Error(`createRedisDriver accepted ${JSON.stringify(Object.keys(options))}`);
};

describe('redis driver options', () => {
  it('every CONFIG_INVALID the constructor throws says what the option takes and shows a valid call', () => {
    const redis = new Redis({ lazyConnect: true });
    const bad: readonly RedisDriverOptions[] = [
      { redis, url: 'redis://127.0.0.1:6379' },
      { redis, maxPayloadBytes: 0 },
      { redis, commandTimeoutMs: 1.5 },
      { redis, prefix: '' },
      { redis, prefix: 'a{b}' },
      { url: 'postgres://postgres@127.0.0.1:5432/app' },
      { sentinels, name: 'mymaster', url: 'redis://127.0.0.1:6379' },
      { sentinels, name: 'mymaster', redis },
      { sentinels },
      { sentinels, name: '' },
      { sentinels: [], name: 'mymaster' },
      { sentinels: [{ host: '', port: 26379 }], name: 'mymaster' },
      { sentinels: [{ host: '127.0.0.1', port: 0 }], name: 'mymaster' },
      { sentinels: [{ host: '127.0.0.1' } as SentinelAddress], name: 'mymaster' },
      { sentinels, name: 'mymaster', db: -1 },
      { sentinels, name: 'mymaster', password: 7 as unknown as string },
      { sentinels, name: 'mymaster', tls: 'yes' as unknown as object },
      { url: 'redis://127.0.0.1:6379', name: 'mymaster' },
      { url: 'redis://127.0.0.1:6379', password: 'secret' },
      { redis, durability: { replicas: 0, timeoutMs: 1_000 } },
      { redis, durability: { replicas: 1.5, timeoutMs: 1_000 } },
      { redis, durability: { replicas: 1, timeoutMs: 0 } },
      { redis, durability: { replicas: 1, timeoutMs: -5 } },
      { redis, durability: { replicas: 1 } as Durability },
      { redis, durability: { timeoutMs: 1_000 } as Durability },
      { redis, durability: { replicas: 1, timeoutMs: 10_000 } },
      { redis, durability: 1 as unknown as Durability },
    ];
    for (const options of bad) {
      const error = refusal(options);
      expect(isBerthError(error, 'CONFIG_INVALID'), String(error)).toBe(true);
      if (!isBerthError(error, 'CONFIG_INVALID')) continue;
      expect(configFixProblem(error.meta.option, error.fix), error.fix).toBeUndefined();
    }
    redis.disconnect();
  });
});

describe('redis driver sentinel and durability options', () => {
  it('each refusal names the option at fault', () => {
    const redis = new Redis({ lazyConnect: true });
    const cases: readonly [RedisDriverOptions, string][] = [
      [{ sentinels, name: 'mymaster', url: 'redis://127.0.0.1:6379' }, 'sentinels'],
      [{ sentinels }, 'name'],
      [{ sentinels: [{ host: '127.0.0.1', port: 70_000 }], name: 'mymaster' }, 'sentinels[0].port'],
      [{ url: 'redis://127.0.0.1:6379', password: 'secret' }, 'password'],
      [{ redis, durability: { replicas: 0, timeoutMs: 1_000 } }, 'durability.replicas'],
      [{ redis, durability: { replicas: 1 } as Durability }, 'durability.timeoutMs'],
      [
        { redis, commandTimeoutMs: 2_000, durability: { replicas: 1, timeoutMs: 2_000 } },
        'durability.timeoutMs',
      ],
    ];
    for (const [options, option] of cases) {
      const error = refusal(options);
      expect(isBerthError(error, 'CONFIG_INVALID') && error.meta.option).toBe(option);
    }
    redis.disconnect();
  });
});
