import { createMemoryDriver } from '@berth/driver-memory';
import {
  readmeBlock,
  runSnippet,
  snippetTypeErrors,
  splitImports,
  stripTypes,
} from '@berth/test-servers';
import { expect, it } from 'vitest';
import { z } from 'zod';
import {
  createClient,
  createWorker,
  declareJob,
  defineEvent,
  defineJob,
  implementJob,
  NonRetryableError,
} from '../src/index.js';

it('the README runtime example runs as written: define, enqueue, work, stop', async () => {
  const code = readmeBlock(new URL('../README.md', import.meta.url), 'runtime-example');
  const { imports, body } = splitImports(code);
  expect(imports).toHaveLength(3);
  const printed: unknown[][] = [];
  await runSnippet(body, {
    createClient,
    createWorker,
    defineJob,
    NonRetryableError,
    createMemoryDriver,
    z,
    console: { log: (...args: unknown[]) => printed.push(args) },
  });
  expect(printed).toEqual([['send-welcome {"to":"ada@example.com","locale":"en","attempt":1}']]);
});

it('the README typed example runs as written: contract, implementation, event, typed result', async () => {
  const code = readmeBlock(new URL('../README.md', import.meta.url), 'typed-example');
  const { imports, body } = splitImports(code);
  expect(imports).toHaveLength(3);
  const printed: unknown[][] = [];
  await runSnippet(stripTypes(body), {
    createClient,
    createWorker,
    declareJob,
    defineEvent,
    implementJob,
    createMemoryDriver,
    z,
    console: { log: (...args: unknown[]) => printed.push(args) },
  });
  expect(printed).toEqual([['o-1', true]]);
});

it('the README typed example type-checks as written', () => {
  const errors = snippetTypeErrors(
    readmeBlock(new URL('../README.md', import.meta.url), 'typed-example'),
    {
      tsconfig: new URL('../tsconfig.json', import.meta.url),
      at: new URL('./readme-typed.snippet.ts', import.meta.url),
    },
  );
  expect(errors).toEqual([]);
}, 60_000);
