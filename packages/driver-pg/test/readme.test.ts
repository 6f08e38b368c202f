import { readmeBlock, runSnippet, serverUrl, stripTypes } from '@berth/test-servers';
import { expect, it } from 'vitest';
import { createPgDriver, LATEST_VERSION, type PgDriverOptions } from '../src/index.js';
import { dropSchema, freshSchema } from './pg-factory.js';

it('the README quick-start runs as written: connect, migrate, enqueue, claim and ack', async () => {
  const code = readmeBlock(new URL('../README.md', import.meta.url), 'quick-start');
  const importLine = "import { createPgDriver } from '@berth/driver-pg';\n";
  expect(code.startsWith(importLine)).toBe(true);

  // The snippet runs on a schema of its own, so it can never meet another test's tables.
  const schema = freshSchema();
  const printed: unknown[][] = [];
  const env = { DATABASE_URL: await serverUrl('pg') };
  try {
    await runSnippet(code.slice(importLine.length), {
      createPgDriver: (options: PgDriverOptions) => createPgDriver({ ...options, schema }),
      process: { env },
      console: { log: (...args: unknown[]) => printed.push(args) },
    });
  } finally {
    await dropSchema(schema);
  }
  expect(printed).toEqual([
    [
      'berth schema at version 17, applied now: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17',
    ],
    ['completed', { sent: true }],
  ]);
});

it('the README pool-options example runs as written', async () => {
  const code = readmeBlock(new URL('../README.md', import.meta.url), 'pool-options');
  const importLine = "import { createPgDriver } from '@berth/driver-pg';\n";
  expect(code.startsWith(importLine)).toBe(true);
  const schema = freshSchema();
  const printed: unknown[][] = [];
  try {
    await runSnippet(code.slice(importLine.length), {
      createPgDriver: (options: PgDriverOptions) => createPgDriver({ ...options, schema }),
      process: { env: { DATABASE_URL: await serverUrl('pg') } },
      console: { log: (...args: unknown[]) => printed.push(args) },
    });
  } finally {
    await dropSchema(schema);
  }
  expect(printed).toEqual([[`berth schema at version ${LATEST_VERSION}`]]);
});

it('the README outbox example runs as written: a job staged in a committed transaction is in the queue', async () => {
  const { createOutboxRelay, defineJob } = await import('@berth/core');
  const { createPgOutbox } = await import('../src/index.js');
  const { default: pg } = await import('pg');
  const code = readmeBlock(new URL('../README.md', import.meta.url), 'outbox');
  const imports = code.split('\n').filter((line) => line.startsWith('import '));
  expect(imports).toHaveLength(3);
  const [queueSchema, outboxSchema] = [freshSchema(), freshSchema()];
  const printed: unknown[][] = [];
  const url = await serverUrl('pg');
  try {
    const body = code
      .split('\n')
      .filter((line) => !line.startsWith('import '))
      .join('\n');
    await runSnippet(stripTypes(body), {
      createOutboxRelay,
      defineJob,
      pg,
      createPgDriver: (options: PgDriverOptions) =>
        createPgDriver({ ...options, schema: queueSchema }),
      createPgOutbox: (options: Parameters<typeof createPgOutbox>[0]) =>
        createPgOutbox({ ...options, schema: outboxSchema }),
      process: { env: { DATABASE_URL: url, QUEUE_URL: url } },
      console: { log: (...args: unknown[]) => printed.push(args) },
    });
  } finally {
    await dropSchema(queueSchema);
    await dropSchema(outboxSchema);
  }
  expect(printed).toEqual([['ready']]);
});
