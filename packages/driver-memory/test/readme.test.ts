import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { createMemoryDriver } from '../src/index.js';

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

it('the README quick-start runs as written: enqueue, claim, ack, get', async () => {
  const code = quickStart();
  const importLine = "import { createMemoryDriver } from '@berth/driver-memory';\n";
  expect(code.startsWith(importLine)).toBe(true);
  const printed: unknown[][] = [];
  const run = new AsyncFunction('createMemoryDriver', 'console', code.slice(importLine.length));
  await run(createMemoryDriver, { log: (...args: unknown[]) => printed.push(args) });
  expect(printed).toEqual([['completed', { sent: true }]]);
});
