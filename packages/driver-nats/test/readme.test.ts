import { readmeBlock, runSnippet, serverUrl } from '@berth/test-servers';
import { expect, it } from 'vitest';
import { createNatsDriver, type NatsDriverOptions } from '../src/index.js';
import { dropPrefix, freshPrefix } from './nats-factory.js';

it('the README quick-start runs as written: connect, enqueue, claim and ack', async () => {
  const code = readmeBlock(new URL('../README.md', import.meta.url), 'quick-start');
  const importLine = "import { createNatsDriver } from '@berth/driver-nats';\n";
  expect(code.startsWith(importLine)).toBe(true);

  // The snippet runs on a prefix of its own, so it can never meet another test's streams.
  const prefix = freshPrefix();
  const printed: unknown[][] = [];
  const url = await serverUrl('nats');
  try {
    await runSnippet(code.slice(importLine.length), {
      createNatsDriver: (options: NatsDriverOptions) => createNatsDriver({ ...options, prefix }),
      process: { env: { NATS_URL: url } },
      console: { log: (...args: unknown[]) => printed.push(args) },
    });
  } finally {
    await dropPrefix(url, prefix);
  }
  expect(printed).toEqual([['completed', { sent: true }]]);
});
