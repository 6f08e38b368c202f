import { describe, expect, it } from 'vitest';
import { driverUnavailable, jobNotFound } from '../src/driver.js';
import {
  BerthError,
  CORE_ERROR_CODES,
  errorCodeEntry,
  isBerthError,
  registerErrorCode,
  registeredErrorCodes,
} from '../src/index.js';

const JOB_ID = '7f0c6b2e-8a47-4a83-9b3c-0f1b2a3c4d5e';

describe('BerthError and the code registry', () => {
  it('registers every core code once at import, DRIVER_NOT_MIGRATED and DRIVER_CLOSED among them', () => {
    const codes = registeredErrorCodes().map((entry) => entry.code);
    for (const code of Object.keys(CORE_ERROR_CODES)) expect(codes).toContain(code);
    expect(codes).toEqual(expect.arrayContaining(['DRIVER_NOT_MIGRATED', 'DRIVER_CLOSED']));
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('refuses a second registration of a code', () => {
    expect(() => registerErrorCode({ code: 'JOB_INVALID', title: 'again', fix: 'none' })).toThrow(
      /already registered/,
    );
  });

  it('refuses a code that is not UPPER_SNAKE_CASE', () => {
    const code = 'lower-case' as 'JOB_INVALID';
    expect(() => registerErrorCode({ code, title: 't', fix: 'f' })).toThrow(TypeError);
  });

  it('refuses to build an error with an unregistered code', () => {
    const code = 'NEVER_REGISTERED' as 'JOB_NOT_FOUND';
    expect(() => new BerthError({ code, detail: 'x', meta: { jobId: JOB_ID } })).toThrow(
      /not registered/,
    );
  });

  it('carries code, message, detail, fix and meta, and serialises them with toJSON', () => {
    const error = jobNotFound(JOB_ID);
    expect(error.code).toBe('JOB_NOT_FOUND');
    expect(error.message).toBe(`JOB_NOT_FOUND: ${error.detail}`);
    expect(error.detail).toContain(JOB_ID);
    expect(error.cause).toBeUndefined();
    expect('cause' in error).toBe(false);
    expect(error.meta).toEqual({ jobId: JOB_ID });
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'BerthError',
      code: 'JOB_NOT_FOUND',
      message: error.message,
      detail: error.detail,
      fix: error.fix,
      meta: { jobId: JOB_ID },
    });
  });

  it('keeps a backend error as the ES2022 cause of DRIVER_UNAVAILABLE, and toJSON shows it as strings', () => {
    const raw = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), {
      code: 'ECONNREFUSED',
    });
    const error = driverUnavailable({ driver: 'pg', operation: 'claim', cause: raw });
    expect(error.code).toBe('DRIVER_UNAVAILABLE');
    expect(error.cause).toBe(raw);
    expect(error.detail).toContain('ECONNREFUSED');
    expect(error.meta).toEqual({ driver: 'pg', operation: 'claim', errorCode: 'ECONNREFUSED' });
    expect(error).not.toHaveProperty('original');
    expect(error.toJSON().cause).toEqual({
      name: 'Error',
      message: 'connect ECONNREFUSED 127.0.0.1:1',
      code: 'ECONNREFUSED',
    });
  });

  it('tells BerthErrors and their codes apart with isBerthError', () => {
    const error = jobNotFound(JOB_ID);
    expect(isBerthError(error)).toBe(true);
    expect(isBerthError(error, 'JOB_NOT_FOUND')).toBe(true);
    expect(isBerthError(error, 'JOB_INVALID')).toBe(false);
    expect(isBerthError(new Error('plain'))).toBe(false);
  });
});

describe('BerthError meta is always JSON', () => {
  const build = (meta: unknown) =>
    new BerthError({
      code: 'STEP_INVALID',
      detail: 'meta test',
      meta: meta as Record<string, never>,
    });

  it('copies bigint to its decimal string and drops functions, symbols and undefined', () => {
    const error = build({
      big: 12345678901234567890n,
      fn: () => 1,
      sym: Symbol('s'),
      none: undefined,
      list: [1n, () => 2, undefined, 'x'],
      nested: { deep: 2n },
    });
    expect(error.meta).toEqual({
      big: '12345678901234567890',
      list: ['1', null, null, 'x'],
      nested: { deep: '2' },
    });
    expect(() => JSON.stringify(error)).not.toThrow();
  });

  it('marks a cycle "[cyclic]" instead of throwing', () => {
    const loop: Record<string, unknown> = { name: 'loop' };
    loop.self = loop;
    loop.list = [loop];
    const error = build({ loop });
    expect(error.meta).toEqual({
      loop: { name: 'loop', self: '[cyclic]', list: ['[cyclic]'] },
    });
    expect(JSON.parse(JSON.stringify(error)).meta.loop.self).toBe('[cyclic]');
  });

  it('never invokes a getter: it reads "[getter]"', () => {
    let calls = 0;
    const meta = {
      get secret() {
        calls += 1;
        throw new Error('must not run');
      },
      plain: 1,
    };
    const error = build(meta);
    expect(calls).toBe(0);
    expect(error.meta).toEqual({ secret: '[getter]', plain: 1 });
    expect(() => JSON.stringify(error)).not.toThrow();
    expect(calls).toBe(0);
  });

  it('bounds the depth, and deep-freezes the copy', () => {
    let deep: Record<string, unknown> = { leaf: true };
    for (let n = 0; n < 20; n += 1) deep = { down: deep };
    const source = { deep, list: [{ a: 1 }] };
    const error = build(source);
    expect(JSON.stringify(error.meta)).toContain('[too deep]');
    expect(Object.isFrozen(error.meta)).toBe(true);
    const list = (error.meta as { list: { a: number }[] }).list;
    expect(Object.isFrozen(list)).toBe(true);
    expect(Object.isFrozen(list[0])).toBe(true);
    expect(Object.isFrozen(source.list[0])).toBe(false);
  });

  it('serialises a cause that is not an Error, or one with hostile fields, as strings', () => {
    const thrown = driverUnavailable({ driver: 'x', operation: 'y', cause: 'a string was thrown' });
    expect(thrown.toJSON().cause).toEqual({ name: 'string', message: 'a string was thrown' });
    const hostile = {
      get message(): string {
        throw new Error('no');
      },
    };
    const error = driverUnavailable({ driver: 'x', operation: 'y', cause: hostile, detail: 'd' });
    expect(() => JSON.stringify(error)).not.toThrow();
  });

  it('shows a Date as its ISO string and an Error in meta as its name and message', () => {
    const error = build({ at: new Date(Date.UTC(2026, 0, 1)), inner: new TypeError('bad') });
    expect(error.meta).toEqual({
      at: '2026-01-01T00:00:00.000Z',
      inner: { name: 'TypeError', message: 'bad' },
    });
  });

  it('keeps the registered fix when none is given', () => {
    expect(jobNotFound(JOB_ID).fix).toBe(errorCodeEntry('JOB_NOT_FOUND')?.fix);
  });
});
