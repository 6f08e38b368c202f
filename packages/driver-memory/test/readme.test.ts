import { readmeBlock, runSnippet } from '@berth/test-servers';
import { expect, it } from 'vitest';
import { createMemoryDriver } from '../src/index.js';

it('the README quick-start runs as written: enqueue, claim, ack, get', async () => {
  const code = readmeBlock(new URL('../README.md', import.meta.url), 'quick-start');
  const importLine = "import { createMemoryDriver } from '@berth/driver-memory';\n";
  expect(code.startsWith(importLine)).toBe(true);
  const printed: unknown[][] = [];
  await runSnippet(code.slice(importLine.length), {
    createMemoryDriver,
    console: { log: (...args: unknown[]) => printed.push(args) },
  });
  expect(printed).toEqual([['completed', { sent: true }]]);
});
