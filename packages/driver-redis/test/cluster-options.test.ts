import { createServer } from 'node:net';
import { isBerthError } from '@berth/core';
import { configFixProblem, freePort } from '@berth/test-servers';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createRedisDriver, type RedisDriverOptions } from '../src/index.js';

const refusal = (options: RedisDriverOptions): unknown => {
  try {
    createRedisDriver(options);
  } catch (error) {
    return error;
  }
  throw new Error(`createRedisDriver accepted ${JSON.stringify(options.cluster)}`);
};

describe('redis driver cluster option', () => {
  it('a cluster list that is empty, holds a bad entry, or comes with url or redis is CONFIG_INVALID at construction, with a fix that names real options', () => {
    const redis = new Redis({ lazyConnect: true });
    const node = { host: '127.0.0.1', port: 7000 };
    const bad: readonly RedisDriverOptions[] = [
      { cluster: [] },
      { cluster: [node, { host: '', port: 7001 }] },
      { cluster: [{ host: '127.0.0.1', port: 0 }] },
      { cluster: [{ host: '127.0.0.1', port: 70_000 }] },
      { cluster: [{ host: '127.0.0.1', port: 7000.5 }] },
      { cluster: [{ host: '127.0.0.1', port: '7000' } as unknown as typeof node] },
      { cluster: [null as unknown as typeof node] },
      { cluster: 'redis://127.0.0.1:7000' as unknown as (typeof node)[] },
      { cluster: [node], url: 'redis://127.0.0.1:6379' },
      { cluster: [node], redis },
    ];
    for (const options of bad) {
      const error = refusal(options);
      expect(isBerthError(error, 'CONFIG_INVALID'), String(error)).toBe(true);
      if (!isBerthError(error, 'CONFIG_INVALID')) continue;
      expect(error.meta.option).toBe('cluster');
      expect(configFixProblem(error.meta.option, error.fix)).toBeUndefined();
    }
    redis.disconnect();
  });

  it('a cluster nobody answers for fails a call with DRIVER_UNAVAILABLE saying no node is reachable, instead of holding it until the nodes come', async () => {
    const port = await freePort();
    const driver = createRedisDriver({
      cluster: [{ host: '127.0.0.1', port }],
      prefix: 'berth-redis-cluster-none',
      commandTimeoutMs: 600_000,
    });
    try {
      const error = await driver.enqueue({ name: 'x' }).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(isBerthError(error, 'DRIVER_UNAVAILABLE'), String(error)).toBe(true);
      expect(String(error)).toMatch(/no node of the Redis Cluster is reachable/);
    } finally {
      await driver.close();
    }
  });

  it('a node that is no cluster node fails a call with DRIVER_UNAVAILABLE', async () => {
    // A plain TCP listener that never answers the cluster's CLUSTER SLOTS.
    const silent = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const driver = createRedisDriver({ cluster: [{ host: '127.0.0.1', port }], prefix: 'x' });
    try {
      const error = await driver.stats().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(isBerthError(error, 'DRIVER_UNAVAILABLE'), String(error)).toBe(true);
    } finally {
      await driver.close();
      silent.close();
    }
  });
});
