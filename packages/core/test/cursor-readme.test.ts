import { createMemoryDriver } from '@berth/driver-memory';
import { readmeBlock, runSnippet, splitImports } from '@berth/test-servers';
import { expect, it } from 'vitest';

it('the README cursor example runs as written: a cursor walks its own list and no other', async () => {
  const code = readmeBlock(new URL('../README.md', import.meta.url), 'cursor-example');
  const { imports, body } = splitImports(code);
  expect(imports).toHaveLength(1);
  const printed: unknown[][] = [];
  await runSnippet(body, {
    createMemoryDriver,
    console: { log: (...args: unknown[]) => printed.push(args) },
  });
  expect(printed).toEqual([[1], ['JOB_PAGE_INVALID']]);
});
