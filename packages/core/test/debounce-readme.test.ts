import { createMemoryDriver } from '@berth/driver-memory';
import { expect, it } from 'vitest';
import { createClient, createWorker, defineJob } from '../src/index.js';
import { readmeExampleTypeErrors, runReadmeExample } from './support/readme-example.js';

it('the README debounce example runs as written: three edits make one run, with the last revision', async () => {
  const { imports, printed } = await runReadmeExample('debounce-example', {
    createClient,
    createWorker,
    defineJob,
    createMemoryDriver,
  });
  expect(imports).toBe(2);
  expect(printed).toEqual([['indexed', 'doc-1', 'rev', 3], ['cancelled']]);
});

it('the README debounce example type-checks as written', () => {
  const errors = readmeExampleTypeErrors('debounce-example', 'readme-debounce.snippet.ts');
  expect(errors).toEqual([]);
}, 60_000);
