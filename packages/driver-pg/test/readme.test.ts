import { readFileSync } from 'node:fs';
import { serverUrl } from '@berth/test-servers';
import { expect, it } from 'vitest';
import { createPgDriver, type PgDriverOptions } from '../src/index.js';
import { dropSchema, freshSchema } from './pg-factory.js';

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

it('the README quick-start runs as written: connect, migrate, enqueue, claim and ack', async () => {
  const code = quickStart();
  const importLine = "import { createPgDriver } from '@berth/driver-pg';\n";
  expect(code.startsWith(importLine)).toBe(true);

  // The snippet runs on a schema of its own, so it can never meet another test's tables.
  const schema = freshSchema();
  const printed: unknown[][] = [];
  const env = { DATABASE_URL: await serverUrl('pg') };
  const run = new AsyncFunction(
    'createPgDriver',
    'process',
    'console',
    code.slice(importLine.length),
  );
  try {
    await run(
      (options: PgDriverOptions) => createPgDriver({ ...options, schema }),
      { env },
      { log: (...args: unknown[]) => printed.push(args) },
    );
  } finally {
    await dropSchema(schema);
  }
  expect(printed).toEqual([
    ['berth schema at version 1, applied now: 1'],
    ['completed', { sent: true }],
  ]);
});
