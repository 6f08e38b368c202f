import { createMemoryDriver } from '@berth/driver-memory';
import { expect, it } from 'vitest';
import { z } from 'zod';
import {
  createClient,
  createWorker,
  declareJob,
  defineEvent,
  defineJob,
  implementJob,
  NonRetryableError,
} from '../src/index.js';
import { readmeExampleTypeErrors, runReadmeExample } from './support/readme-example.js';

it('the README runtime example runs as written: define, enqueue, work, stop', async () => {
  const { imports, printed } = await runReadmeExample('runtime-example', {
    createClient,
    createWorker,
    defineJob,
    NonRetryableError,
    createMemoryDriver,
    z,
  });
  expect(imports).toBe(3);
  expect(printed).toEqual([['send-welcome {"to":"ada@example.com","locale":"en","attempt":1}']]);
});

it('the README typed example runs as written: contract, implementation, event, typed result', async () => {
  const { imports, printed } = await runReadmeExample('typed-example', {
    createClient,
    createWorker,
    declareJob,
    defineEvent,
    implementJob,
    createMemoryDriver,
    z,
  });
  expect(imports).toBe(3);
  expect(printed).toEqual([['o-1', true]]);
});

it('the README typed example type-checks as written', () => {
  const errors = readmeExampleTypeErrors('typed-example', 'readme-typed.snippet.ts');
  expect(errors).toEqual([]);
}, 60_000);

it('the README pause example runs as written: a paused queue holds its job until resumed', async () => {
  const { imports, printed } = await runReadmeExample('pause-example', {
    createClient,
    createWorker,
    defineJob,
    createMemoryDriver,
  });
  expect(imports).toBe(2);
  expect(printed).toEqual([[true, ['mail']], ['ready'], ['sent']]);
});
