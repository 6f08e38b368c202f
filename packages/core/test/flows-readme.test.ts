import { createMemoryDriver } from '@berth/driver-memory';
import { expect, it } from 'vitest';
import { createClient, createWorker, defineJob } from '../src/index.js';
import { readmeExampleTypeErrors, runReadmeExample } from './support/readme-example.js';

it('the README flows example runs as written: the parent reads its children, then invokes one more', async () => {
  const { imports, printed } = await runReadmeExample('flows-example', {
    createClient,
    createWorker,
    defineJob,
    createMemoryDriver,
  });
  expect(imports).toBe(2);
  expect(printed).toEqual([
    [{ title: 'Atlas', cover: '/pages/0.png', pages: ['/pages/1.png', '/pages/2.png'] }],
  ]);
});

it('the README flows example type-checks as written', () => {
  const errors = readmeExampleTypeErrors('flows-example', 'readme-flows.snippet.ts');
  expect(errors).toEqual([]);
}, 60_000);
