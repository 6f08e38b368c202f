import { readFileSync } from 'node:fs';
import { serverUrl } from '@berth/test-servers';
import { expect, it } from 'vitest';
import { createRedisDriver, type RedisDriverOptions } from '../src/index.js';
import { dropPrefix, freshPrefix } from './redis-factory.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

/** The fenced block after the quick-start marker, as the README shows it. */
function quickStart(): string {
  const marker = readme.indexOf('<!-- quick-start -->');
  const block = /```ts\n([\s\S]*?)```/.exec(readme.slice(marker));
  if (marker < 0 || block?.[1] === undefined) throw new Error('README has no quick-start block');
  return block[1];
}

const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
  ...args: string[]
) => (...values: unknown[]) => Promise<void>;

it('the README quick-start runs as written: connect, enqueue, claim and ack', async () => {
  const code = quickStart();
  const importLine = "import { createRedisDriver } from '@berth/driver-redis';\n";
  expect(code.startsWith(importLine)).toBe(true);

  // The snippet runs on a prefix of its own, so it can never meet another test's keys.
  const prefix = freshPrefix();
  const printed: unknown[][] = [];
  const url = await serverUrl('redis');
  const run = new AsyncFunction(
    'createRedisDriver',
    'process',
    'console',
    code.slice(importLine.length),
  );
  try {
    await run(
      (options: RedisDriverOptions) => createRedisDriver({ ...options, prefix }),
      { env: { REDIS_URL: url } },
      { log: (...args: unknown[]) => printed.push(args) },
    );
  } finally {
    await dropPrefix(url, prefix);
  }
  expect(printed).toEqual([['completed', { sent: true }]]);
});
