import { readmeBlock, runSnippet, startRedisReplicaSet } from '@berth/test-servers';
import { expect, it } from 'vitest';
import { createRedisDriver, type RedisDriverOptions } from '../src/index.js';
import { freshPrefix } from './redis-factory.js';

it('the README Sentinel example runs as written against a primary, a replica and three sentinels', async () => {
  const code = readmeBlock(new URL('../README.md', import.meta.url), 'sentinel');
  const importLine = "import { createRedisDriver } from '@berth/driver-redis';\n";
  expect(code.startsWith(importLine)).toBe(true);

  const set = await startRedisReplicaSet();
  const printed: unknown[][] = [];
  try {
    const [sentinel] = set.sentinelAddresses;
    await runSnippet(code.slice(importLine.length), {
      createRedisDriver: (options: RedisDriverOptions) =>
        createRedisDriver({ ...options, prefix: freshPrefix() }),
      process: {
        env: {
          SENTINEL_HOST: sentinel?.host,
          SENTINEL_PORT: String(sentinel?.port),
          REDIS_MASTER_NAME: set.name,
        },
      },
      console: { log: (...args: unknown[]) => printed.push(args) },
    });
  } finally {
    await set.dispose();
  }
  expect(printed).toEqual([['ready']]);
});
