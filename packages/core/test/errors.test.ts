import { describe, expect, it } from 'vitest';
import {
  BerthError,
  CORE_ERROR_CODES,
  driverUnavailable,
  errorCodeEntry,
  isBerthError,
  jobNotFound,
  registerErrorCode,
  registeredErrorCodes,
} from '../src/index.js';

describe('BerthError and the code registry', () => {
  it('registers every core code once at import', () => {
    const codes = registeredErrorCodes().map((entry) => entry.code);
    for (const code of Object.keys(CORE_ERROR_CODES)) expect(codes).toContain(code);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('refuses a second registration of a code', () => {
    expect(() => registerErrorCode({ code: 'JOB_INVALID', title: 'again', fix: 'none' })).toThrow(
      /already registered/,
    );
  });

  it('refuses a code that is not UPPER_SNAKE_CASE', () => {
    expect(() => registerErrorCode({ code: 'lower-case', title: 't', fix: 'f' })).toThrow(
      TypeError,
    );
  });

  it('registers an app code once and builds errors with it', () => {
    registerErrorCode({ code: 'TEST_APP_CODE', title: 'an app code', fix: 'do the app thing' });
    const error = new BerthError({ code: 'TEST_APP_CODE', cause: 'it happened' });
    expect(error.fix).toBe('do the app thing');
    expect(errorCodeEntry('TEST_APP_CODE')?.title).toBe('an app code');
  });

  it('refuses to build an error with an unregistered code', () => {
    expect(() => new BerthError({ code: 'NEVER_REGISTERED', cause: 'x' })).toThrow(
      /not registered/,
    );
  });

  it('carries code, cause, fix and meta, and serialises them with toJSON', () => {
    const error = jobNotFound('7f0c6b2e-8a47-4a83-9b3c-0f1b2a3c4d5e');
    expect(error.code).toBe('JOB_NOT_FOUND');
    expect(error.message).toContain('JOB_NOT_FOUND');
    expect(error.meta).toEqual({ jobId: '7f0c6b2e-8a47-4a83-9b3c-0f1b2a3c4d5e' });
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'BerthError',
      code: 'JOB_NOT_FOUND',
      message: error.message,
      cause: error.cause,
      fix: error.fix,
      meta: { jobId: '7f0c6b2e-8a47-4a83-9b3c-0f1b2a3c4d5e' },
    });
  });

  it('keeps a backend error as the original of DRIVER_UNAVAILABLE', () => {
    const raw = new Error('connection refused');
    const error = driverUnavailable({ driver: 'pg', operation: 'claim', error: raw });
    expect(error.code).toBe('DRIVER_UNAVAILABLE');
    expect(error.original).toBe(raw);
    expect(error.cause).toContain('connection refused');
    expect(error.meta).toEqual({ driver: 'pg', operation: 'claim' });
  });

  it('tells BerthErrors and their codes apart with isBerthError', () => {
    const error = jobNotFound('7f0c6b2e-8a47-4a83-9b3c-0f1b2a3c4d5e');
    expect(isBerthError(error)).toBe(true);
    expect(isBerthError(error, 'JOB_NOT_FOUND')).toBe(true);
    expect(isBerthError(error, 'JOB_INVALID')).toBe(false);
    expect(isBerthError(new Error('plain'))).toBe(false);
  });
});
