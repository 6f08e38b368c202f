import { createMemoryDriver } from '@berth/driver-memory';
import { expect, it } from 'vitest';
import { createClient, createWorker, defineJob } from '../src/index.js';
import { readmeExampleTypeErrors, runReadmeExample } from './support/readme-example.js';

it('the README lifecycle example runs as written: the tail sees both attempts, in order, then a page reads two', async () => {
  const { imports, printed } = await runReadmeExample('lifecycle-example', {
    createClient,
    createWorker,
    defineJob,
    createMemoryDriver,
  });
  expect(imports).toBe(2);
  expect(printed).toEqual([
    ['active', 1],
    ['progress', 1],
    ['retried', 1],
    ['active', 2],
    ['progress', 2],
    ['completed', 2],
    [2, false],
  ]);
});

it('the README lifecycle example type-checks as written', () => {
  const errors = readmeExampleTypeErrors('lifecycle-example', 'readme-lifecycle.snippet.ts');
  expect(errors).toEqual([]);
}, 60_000);
