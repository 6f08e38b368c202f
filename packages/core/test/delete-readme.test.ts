import { createMemoryDriver } from '@berth/driver-memory';
import { expect, it } from 'vitest';
import { isBerthError } from '../src/index.js';
import { readmeExampleTypeErrors, runReadmeExample } from './support/readme-example.js';

it('the README delete example runs as written: deleted, key freed, running refused, then deleted', async () => {
  const { imports, printed } = await runReadmeExample('delete-example', {
    createMemoryDriver,
    isBerthError,
  });
  expect(imports).toBe(2);
  expect(printed).toEqual([
    ['deleted', 'ready'],
    ['new job', true, false],
    ['refused', 'running'],
    ['then deleted', 'cancelled', true],
  ]);
});

it('the README delete example type-checks as written', () => {
  const errors = readmeExampleTypeErrors('delete-example', 'readme-delete.snippet.ts');
  expect(errors).toEqual([]);
}, 60_000);
