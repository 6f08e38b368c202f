import { createMemoryDriver } from '@berth/driver-memory';
import { expect, it } from 'vitest';
import { createClient, createScheduler, createWorker, defineJob } from '../src/index.js';
import { readmeExampleTypeErrors, runReadmeExample } from './support/readme-example.js';

it('the README stored-schedules example runs as written: a schedule stored at run time runs in the running scheduler, then pauses', async () => {
  const { imports, printed } = await runReadmeExample('stored-schedules-example', {
    createClient,
    createScheduler,
    createWorker,
    defineJob,
    createMemoryDriver,
  });
  expect(imports).toBe(2);
  expect(printed).toEqual([[true, true, 1]]);
}, 30_000);

it('the README stored-schedules example type-checks as written', () => {
  const errors = readmeExampleTypeErrors(
    'stored-schedules-example',
    'readme-stored-schedules.snippet.ts',
  );
  expect(errors).toEqual([]);
}, 60_000);
