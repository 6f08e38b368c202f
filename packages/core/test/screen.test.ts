import { describe, expect, it } from 'vitest';
import { isBerthError, screenEnqueue, screenEnqueueMany } from '../src/index.js';

const LIMIT = 1_024;

const refusedField = (request: unknown): unknown => {
  try {
    screenEnqueue(request as Parameters<typeof screenEnqueue>[0], LIMIT);
  } catch (error) {
    if (isBerthError(error, 'JOB_INVALID')) return error.meta.field;
    throw error;
  }
  return 'accepted';
};

describe('enqueue screening', () => {
  it('fills every default of a minimal request', () => {
    expect(screenEnqueue({ name: 'email' }, LIMIT)).toEqual({
      id: undefined,
      name: 'email',
      queue: 'default',
      payload: null,
      runAt: undefined,
      priority: 0,
      maxAttempts: 3,
      idempotencyKey: undefined,
      onConflict: 'dedupe',
      concurrencyKey: undefined,
      tenantId: undefined,
      traceparent: undefined,
      enqueuedBy: undefined,
    });
  });

  it('lower-cases a caller id and floors a fractional runAt', () => {
    const screened = screenEnqueue(
      { name: 'a', id: 'ABCDEF01-2345-4678-9ABC-DEF012345678', runAt: 10.9 },
      LIMIT,
    );
    expect(screened.id).toBe('abcdef01-2345-4678-9abc-def012345678');
    expect(screened.runAt).toBe(10);
  });

  it('copies the payload, so later changes by the caller do not reach the queue', () => {
    const payload = { nested: { n: 1 }, list: [1, 2] };
    const screened = screenEnqueue({ name: 'a', payload }, LIMIT);
    payload.nested.n = 2;
    expect(screened.payload).toEqual({ nested: { n: 1 }, list: [1, 2] });
  });

  it.each([
    [{ name: '' }, 'name'],
    [{ name: 42 }, 'name'],
    [{ name: 'a'.repeat(201) }, 'name'],
    [{ name: 'a\u0000b' }, 'name'],
    [{ name: 'a', payload: () => 1 }, 'payload'],
    [{ name: 'a', payload: { n: 10n } }, 'payload'],
    [{ name: 'a', payload: { n: Number.NaN } }, 'payload'],
    [{ name: 'a', payload: new Date() }, 'payload'],
    [{ name: 'a', payload: [undefined] }, 'payload'],
    [{ name: 'a', payload: { s: '\ud800' } }, 'payload'],
    [{ name: 'a', payload: 'x'.repeat(LIMIT) }, 'payload'],
    [{ name: 'a', runAt: Number.POSITIVE_INFINITY }, 'runAt'],
    [{ name: 'a', runAt: -1 }, 'runAt'],
    [{ name: 'a', priority: Number.NaN }, 'priority'],
    [{ name: 'a', priority: 1.5 }, 'priority'],
    [{ name: 'a', maxAttempts: 0 }, 'maxAttempts'],
    [{ name: 'a', id: 'not-a-uuid' }, 'id'],
    [{ name: 'a', onConflict: 'replace' }, 'onConflict'],
    [{ name: 'a', traceparent: 'nope' }, 'traceparent'],
    [{ name: 'a', idempotencyKey: '' }, 'idempotencyKey'],
    [{ name: 'a', colour: 'blue' }, 'colour'],
  ])('refuses bad request %# with JOB_INVALID naming its field', (request, field) => {
    expect(refusedField(request)).toBe(field);
  });

  it('refuses a cyclic payload', () => {
    const payload: Record<string, unknown> = {};
    payload.self = payload;
    expect(refusedField({ name: 'a', payload })).toBe('payload');
  });

  it('names the index of the bad request in a batch', () => {
    try {
      screenEnqueueMany([{ name: 'ok' }, { name: '' }], LIMIT);
      expect.unreachable('the batch should be refused');
    } catch (error) {
      expect(isBerthError(error, 'JOB_INVALID')).toBe(true);
      if (isBerthError(error)) expect(error.meta).toMatchObject({ field: 'name', index: 1 });
    }
  });
});
