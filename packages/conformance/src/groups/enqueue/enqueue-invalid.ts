import { DEFAULT_MAX_PAYLOAD_BYTES, type EnqueueRequest, MAX_NAME_LENGTH } from '@berth/core';
import { expect } from 'vitest';
import { expectRefusal } from '../../assert.js';
import type { KitCase } from '../../kit.js';
import { listAll, mustGet } from '../fixtures/index.js';

interface Invalid {
  /** What is wrong, as the title says it. */
  readonly what: string;
  readonly request: unknown;
  readonly field: string;
  readonly meta?: Readonly<Record<string, unknown>>;
}

const cyclic: Record<string, unknown> = { name: 'loop' };
cyclic.self = cyclic;

const overLimit = 'x'.repeat(DEFAULT_MAX_PAYLOAD_BYTES + 1_024);

const invalid: readonly Invalid[] = [
  { what: 'an empty name', request: { name: '' }, field: 'name' },
  { what: 'a missing name', request: { payload: 1 }, field: 'name' },
  { what: 'a name that is not a string', request: { name: 7 }, field: 'name' },
  {
    what: `a name over ${MAX_NAME_LENGTH} characters`,
    request: { name: 'n'.repeat(MAX_NAME_LENGTH + 1) },
    field: 'name',
  },
  { what: 'a request that is not an object', request: null, field: 'request' },
  {
    what: 'a function in the payload',
    request: { name: 'j', payload: { run: () => 1 } },
    field: 'payload',
    meta: { path: '$.run' },
  },
  {
    what: 'a bigint in the payload',
    request: { name: 'j', payload: { n: 10n } },
    field: 'payload',
    meta: { path: '$.n' },
  },
  {
    what: 'NaN in the payload',
    request: { name: 'j', payload: [Number.NaN] },
    field: 'payload',
    meta: { path: '$[0]' },
  },
  {
    what: 'Infinity deep in the payload',
    request: { name: 'j', payload: { a: { b: [1, Number.POSITIVE_INFINITY] } } },
    field: 'payload',
    meta: { path: '$.a.b[1]' },
  },
  {
    what: 'a Date in the payload',
    request: { name: 'j', payload: { at: new Date(0) } },
    field: 'payload',
    meta: { path: '$.at' },
  },
  {
    what: 'a Map in the payload',
    request: { name: 'j', payload: new Map([['a', 1]]) },
    field: 'payload',
    meta: { path: '$' },
  },
  {
    what: 'a cyclic payload',
    request: { name: 'j', payload: cyclic },
    field: 'payload',
    meta: { path: '$.self' },
  },
  {
    what: 'undefined inside a payload array',
    request: { name: 'j', payload: [1, undefined, 3] },
    field: 'payload',
    meta: { path: '$[1]' },
  },
  {
    what: 'a NUL character in a payload string',
    request: { name: 'j', payload: { text: 'a\u0000b' } },
    field: 'payload',
    meta: { path: '$.text' },
  },
  {
    what: "a payload over the driver's size limit",
    request: { name: 'j', payload: overLimit },
    field: 'payload',
    meta: { bytes: overLimit.length + 2 },
  },
  { what: 'a runAt of Infinity', request: { name: 'j', runAt: Infinity }, field: 'runAt' },
  { what: 'a runAt of NaN', request: { name: 'j', runAt: Number.NaN }, field: 'runAt' },
  { what: 'a runAt that is a string', request: { name: 'j', runAt: '2026-01-01' }, field: 'runAt' },
  { what: 'a negative runAt', request: { name: 'j', runAt: -1 }, field: 'runAt' },
  { what: 'a priority of NaN', request: { name: 'j', priority: Number.NaN }, field: 'priority' },
  {
    what: 'a priority of -Infinity',
    request: { name: 'j', priority: Number.NEGATIVE_INFINITY },
    field: 'priority',
  },
  { what: 'a fractional priority', request: { name: 'j', priority: 1.5 }, field: 'priority' },
  { what: 'a maxAttempts of 0', request: { name: 'j', maxAttempts: 0 }, field: 'maxAttempts' },
  { what: 'an id that is not a uuid', request: { name: 'j', id: 'job-1' }, field: 'id' },
  {
    what: 'a parentId that is not a uuid',
    request: { name: 'j', parentId: 'p-1' },
    field: 'parentId',
  },
  {
    what: 'a parentId naming the job itself',
    request: {
      name: 'j',
      id: '0f0e0d0c-0b0a-4908-8706-050403020100',
      parentId: '0F0E0D0C-0B0A-4908-8706-050403020100',
    },
    field: 'parentId',
  },
  { what: 'an empty queue', request: { name: 'j', queue: '' }, field: 'queue' },
  {
    what: 'an empty idempotencyKey',
    request: { name: 'j', idempotencyKey: '' },
    field: 'idempotencyKey',
  },
  {
    what: 'a tenantId that is not a string',
    request: { name: 'j', tenantId: 42 },
    field: 'tenantId',
  },
  { what: 'an unknown field', request: { name: 'j', delay: 1_000 }, field: 'delay' },
  {
    what: 'an onConflict that is neither dedupe nor error',
    request: { name: 'j', idempotencyKey: 'k', onConflict: 'replace' },
    field: 'onConflict',
  },
  {
    what: 'a traceparent that is not W3C',
    request: { name: 'j', traceparent: '00-abc-def-01' },
    field: 'traceparent',
  },
];

const refusals: KitCase[] = invalid.map(({ what, request, field, meta }) => ({
  title: `enqueue of ${what} throws JOB_INVALID naming ${field}, and writes nothing`,
  run: async ({ driver }) => {
    await expectRefusal(driver.enqueue(request as EnqueueRequest), 'JOB_INVALID', {
      field,
      ...meta,
    });
    expect(await listAll(driver)).toEqual([]);
    expect(await driver.stats()).toEqual([]);
  },
}));

export const enqueueInvalidCases: readonly KitCase[] = [
  ...refusals,
  {
    title: "a payload exactly at the driver's default size limit lands",
    run: async ({ driver }) => {
      // A JSON string's bytes are its characters plus two quotes.
      const payload = 'x'.repeat(DEFAULT_MAX_PAYLOAD_BYTES - 2);
      const { id } = await driver.enqueue({ name: 'big', payload });
      expect((await mustGet(driver, id)).payload).toBe(payload);
    },
  },
  {
    title: "JOB_INVALID for an oversized payload names the driver's limit in meta.maxBytes",
    run: async ({ driver }) => {
      const error = await expectRefusal(
        driver.enqueue({ name: 'big', payload: overLimit }),
        'JOB_INVALID',
        { field: 'payload' },
      );
      expect(error.meta.maxBytes).toBe(DEFAULT_MAX_PAYLOAD_BYTES);
      expect(error.meta.bytes).toBeGreaterThan(DEFAULT_MAX_PAYLOAD_BYTES);
    },
  },
];
