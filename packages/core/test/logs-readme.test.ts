import { createMemoryDriver } from '@berth/driver-memory';
import { expect, it } from 'vitest';
import { createClient, createWorker, defineJob } from '../src/index.js';
import { readmeExampleTypeErrors, runReadmeExample } from './support/readme-example.js';

it('the README job logs example runs as written: both attempts’ lines, in order, with their attempt', async () => {
  const { imports, printed } = await runReadmeExample('logs-example', {
    createClient,
    createWorker,
    defineJob,
    createMemoryDriver,
  });
  expect(imports).toBe(2);
  expect(printed).toEqual([
    [1, 1, 'info', 'importing 3 rows'],
    [2, 1, 'debug', '{"attempt":1}'],
    [3, 1, 'warn', 'the database went away; retrying'],
    [4, 2, 'info', 'importing 3 rows'],
    [5, 2, 'debug', '{"attempt":2}'],
    [6, 2, 'info', 'done'],
    ['dropped', 0],
  ]);
});

it('the README job logs example type-checks as written', () => {
  const errors = readmeExampleTypeErrors('logs-example', 'readme-logs.snippet.ts');
  expect(errors).toEqual([]);
}, 60_000);
