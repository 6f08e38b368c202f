import { createMemoryDriver } from '@berth/driver-memory';
import { expect, it } from 'vitest';
import { createClient, createWorker, defineBackfill } from '../src/index.js';
import { readmeExampleTypeErrors, runReadmeExample } from './support/readme-example.js';

it('the README backfills example runs as written: every user is reindexed in four passes', async () => {
  const { imports, printed } = await runReadmeExample('backfills-example', {
    createClient,
    createWorker,
    defineBackfill,
    createMemoryDriver,
  });
  expect(imports).toBe(2);
  expect(printed).toEqual([
    [{ status: 'completed', passes: 4, rowsDone: 1_000 }],
    ['completed', 1_000, 4],
  ]);
});

it('the README backfills example type-checks as written', () => {
  const errors = readmeExampleTypeErrors('backfills-example', 'readme-backfills.snippet.ts');
  expect(errors).toEqual([]);
}, 60_000);
