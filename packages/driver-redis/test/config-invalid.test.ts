import { isBerthError } from '@berth/core';
import { configFixProblem } from '@berth/test-servers';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createRedisDriver, type RedisDriverOptions } from '../src/index.js';

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
    ];
    for (const options of bad) {
      const error = refusal(options);
      expect(isBerthError(error, 'CONFIG_INVALID'), String(error)).toBe(true);
      if (!isBerthError(error, 'CONFIG_INVALID')) continue;
      expect(configFixProblem(error.meta.option, error.fix)).toBeUndefined();
    }
    redis.disconnect();
  });
});
