import { createMemoryDriver } from '@berth/driver-memory';
import { readmeBlock, runSnippet, splitImports } from '@berth/test-servers';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { createClient, createWorker, defineJob, NonRetryableError } from '../src/index.js';

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
