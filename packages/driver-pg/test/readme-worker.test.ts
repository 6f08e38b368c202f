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
import { createPgDriver, type PgDriverOptions } from '../src/index.js';
import { dropSchema, freshSchema } from './pg-factory.js';

const workerQuickStart = (): string =>
  readmeBlock(new URL('../README.md', import.meta.url), 'worker-quick-start');

it('the README worker quick-start type-checks as written', () => {
  const errors = snippetTypeErrors(workerQuickStart(), {
    tsconfig: new URL('../tsconfig.json', import.meta.url),
    at: new URL('./readme-worker.snippet.ts', import.meta.url),
  });
  expect(errors).toEqual([]);
}, 60_000);

it('the README worker quick-start runs as written: migrate, define, enqueue, work, stop', async () => {
  const { imports, body: source } = splitImports(workerQuickStart());
  expect(imports).toEqual([
    "import { createClient, createWorker, defineJob } from '@berth/core';",
    "import { createPgDriver } from '@berth/driver-pg';",
  ]);
  // Types stripped, nothing else changed: what runs is the text the reader copies.
  const body = stripTypes(source);

  // The snippet runs on a schema of its own, so it can never meet another test's tables.
  const schema = freshSchema();
  const printed: unknown[][] = [];
  const env = { DATABASE_URL: await serverUrl('pg') };
  try {
    await runSnippet(body, {
      createClient,
      createWorker,
      defineJob,
      createPgDriver: (options: PgDriverOptions) => createPgDriver({ ...options, schema }),
      process: { env },
      console: { log: (...args: unknown[]) => printed.push(args) },
    });
  } finally {
    await dropSchema(schema);
  }
  expect(printed).toEqual([['email.send {"to":"ada@example.com","sent":true}']]);
});
