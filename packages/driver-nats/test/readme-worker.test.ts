import { createClient, createWorker, defineJob } from '@berth/core';
import {
  readmeBlock,
  runSnippet,
  serverUrl,
  snippetTypeErrors,
  splitImports,
  stripTypes,
} from '@berth/test-servers';
import { expect, it } from 'vitest';
import { createNatsDriver, type NatsDriverOptions } from '../src/index.js';
import { dropPrefix, freshPrefix } from './nats-factory.js';

const workerQuickStart = (): string =>
  readmeBlock(new URL('../README.md', import.meta.url), 'worker-quick-start');

it('the README worker quick-start type-checks as written', () => {
  const errors = snippetTypeErrors(workerQuickStart(), {
    tsconfig: new URL('../tsconfig.json', import.meta.url),
    at: new URL('./readme-worker.snippet.ts', import.meta.url),
  });
  expect(errors).toEqual([]);
}, 60_000);

it('the README worker quick-start runs as written: connect, define, enqueue, work, stop', async () => {
  const { imports, body: source } = splitImports(workerQuickStart());
  expect(imports).toEqual([
    "import { createClient, createWorker, defineJob } from '@berth/core';",
    "import { createNatsDriver } from '@berth/driver-nats';",
  ]);
  // Types stripped, nothing else changed: what runs is the text the reader copies.
  const body = stripTypes(source);

  // The snippet runs on a prefix of its own, so it can never meet another test's streams.
  const prefix = freshPrefix();
  const printed: unknown[][] = [];
  const url = await serverUrl('nats');
  try {
    await runSnippet(body, {
      createClient,
      createWorker,
      defineJob,
      createNatsDriver: (options: NatsDriverOptions) => createNatsDriver({ ...options, prefix }),
      process: { env: { NATS_URL: url } },
      console: { log: (...args: unknown[]) => printed.push(args) },
    });
  } finally {
    await dropPrefix(url, prefix);
  }
  expect(printed).toEqual([['email.send {"to":"ada@example.com","sent":true}']]);
});
