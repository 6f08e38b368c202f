import { createMemoryDriver } from '@berth/driver-memory';
import { expect, it } from 'vitest';
import { createClient, createWorker, defineJob } from '../src/index.js';
import { readmeExampleTypeErrors, runReadmeExample } from './support/readme-example.js';

it('the README attempts example runs as written: two retried attempts with their errors, then completed', async () => {
  const { imports, printed } = await runReadmeExample('attempts-example', {
    createClient,
    createWorker,
    defineJob,
    createMemoryDriver,
  });
  expect(imports).toBe(2);
  expect(printed).toEqual([
    [1, 'retried', 'w1', 'down, try 1'],
    [2, 'retried', 'w1', 'down, try 2'],
    [3, 'completed', 'w1', '-'],
    ['dropped', 0],
  ]);
});

it('the README attempts example type-checks as written', () => {
  const errors = readmeExampleTypeErrors('attempts-example', 'readme-attempts.snippet.ts');
  expect(errors).toEqual([]);
}, 60_000);
