import { readmeBlock, runSnippet, serverUrl } from '@berth/test-servers';
import { expect, it } from 'vitest';
import { createRedisDriver, type RedisDriverOptions } from '../src/index.js';
import { dropPrefix, freshPrefix } from './redis-factory.js';

it('the README quick-start runs as written: connect, enqueue, claim and ack', async () => {
  const code = readmeBlock(new URL('../README.md', import.meta.url), 'quick-start');
  const importLine = "import { createRedisDriver } from '@berth/driver-redis';\n";
  expect(code.startsWith(importLine)).toBe(true);

  // The snippet runs on a prefix of its own, so it can never meet another test's keys.
  const prefix = freshPrefix();
  const printed: unknown[][] = [];
  const url = await serverUrl('redis');
  try {
    await runSnippet(code.slice(importLine.length), {
      createRedisDriver: (options: RedisDriverOptions) => createRedisDriver({ ...options, prefix }),
      process: { env: { REDIS_URL: url } },
      console: { log: (...args: unknown[]) => printed.push(args) },
    });
  } finally {
    await dropPrefix(url, prefix);
  }
  expect(printed).toEqual([['completed', { sent: true }]]);
});
