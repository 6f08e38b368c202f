import { createMemoryDriver } from '@berth/driver-memory';
import { expect, it } from 'vitest';
import { createClient, createWorker, defineJob } from '../src/index.js';
import { readmeExampleTypeErrors, runReadmeExample } from './support/readme-example.js';

it('the README progress example runs as written: two writes land, the last value is stored', async () => {
  const { imports, printed } = await runReadmeExample('progress-example', {
    createClient,
    createWorker,
    defineJob,
    createMemoryDriver,
  });
  expect(imports).toBe(2);
  expect(printed).toEqual([
    ['progress', 'resize-images', '{"done":1,"of":3}'],
    ['progress', 'resize-images', '{"done":3,"of":3}'],
    ['stored', '{"done":3,"of":3}'],
  ]);
});

it('the README progress example type-checks as written', () => {
  const errors = readmeExampleTypeErrors('progress-example', 'readme-progress.snippet.ts');
  expect(errors).toEqual([]);
}, 60_000);
