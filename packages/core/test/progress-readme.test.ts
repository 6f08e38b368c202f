import { createMemoryDriver } from '@berth/driver-memory';
import {
  readmeBlock,
  runSnippet,
  snippetTypeErrors,
  splitImports,
  stripTypes,
} from '@berth/test-servers';
import { expect, it } from 'vitest';
import { createClient, createWorker, defineJob } from '../src/index.js';

const readme = new URL('../README.md', import.meta.url);

it('the README progress example runs as written: two writes land, the last value is stored', async () => {
  const { imports, body } = splitImports(readmeBlock(readme, 'progress-example'));
  expect(imports).toHaveLength(2);
  const printed: unknown[][] = [];
  await runSnippet(stripTypes(body), {
    createClient,
    createWorker,
    defineJob,
    createMemoryDriver,
    console: { log: (...args: unknown[]) => printed.push(args) },
  });
  expect(printed).toEqual([
    ['progress', 'resize-images', '{"done":1,"of":3}'],
    ['progress', 'resize-images', '{"done":3,"of":3}'],
    ['stored', '{"done":3,"of":3}'],
  ]);
});

it('the README progress example type-checks as written', () => {
  const errors = snippetTypeErrors(readmeBlock(readme, 'progress-example'), {
    tsconfig: new URL('../tsconfig.json', import.meta.url),
    at: new URL('./readme-progress.snippet.ts', import.meta.url),
  });
  expect(errors).toEqual([]);
}, 60_000);
