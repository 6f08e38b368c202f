import { readFileSync } from 'node:fs';
import { createMemoryDriver } from '@berth/driver-memory';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { createClient, createWorker, defineJob, NonRetryableError } from '../src/index.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

/** The fenced block after the runtime-example marker, as the README shows it. */
function runtimeExample(): string {
  const marker = readme.indexOf('<!-- runtime-example -->');
  const block = /```ts\n([\s\S]*?)```/.exec(readme.slice(marker));
  if (marker < 0 || block?.[1] === undefined)
    throw new Error('README has no runtime-example block');
  return block[1];
}

const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
  ...args: string[]
) => (...values: unknown[]) => Promise<void>;

it('the README runtime example runs as written: define, enqueue, work, stop', async () => {
  const code = runtimeExample();
  const imports = code.split('\n').filter((line) => line.startsWith('import '));
  expect(imports).toHaveLength(3);
  const body = code
    .split('\n')
    .filter((line) => !line.startsWith('import '))
    .join('\n');
  const printed: unknown[][] = [];
  const run = new AsyncFunction(
    'createClient',
    'createWorker',
    'defineJob',
    'NonRetryableError',
    'createMemoryDriver',
    'z',
    'console',
    body,
  );
  await run(createClient, createWorker, defineJob, NonRetryableError, createMemoryDriver, z, {
    log: (...args: unknown[]) => printed.push(args),
  });
  expect(printed).toEqual([['send-welcome {"to":"ada@example.com","locale":"en","attempt":1}']]);
});
