import { createMemoryDriver } from '@berth/driver-memory';
import { expect, it } from 'vitest';
import { createClient, createWorker, defineBatchJob } from '../src/index.js';
import { readmeExampleTypeErrors, runReadmeExample } from './support/readme-example.js';

it('the README batch example runs as written: one handler call for three jobs, each with its own result', async () => {
  const { imports, printed } = await runReadmeExample('batch-example', {
    createClient,
    createWorker,
    defineBatchJob,
    createMemoryDriver,
  });
  expect(imports).toBe(2);
  expect(printed).toEqual([
    ['one request for', 3, 'documents'],
    [{ indexed: 'intro' }],
    [{ indexed: 'usage' }],
    [{ indexed: 'faq' }],
  ]);
});

it('the README batch example type-checks as written', () => {
  const errors = readmeExampleTypeErrors('batch-example', 'readme-batch.snippet.ts');
  expect(errors).toEqual([]);
}, 60_000);
