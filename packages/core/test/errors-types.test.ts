import { describe, expect, expectTypeOf, it } from 'vitest';
import { jobNotFound } from '../src/driver.js';
import {
  BerthError,
  type BerthErrorCode,
  type BerthErrorMetas,
  isBerthError,
  registerErrorCode,
} from '../src/index.js';

// What a driver or app does to add a code: merge its meta shape into the interface, then
// register it once at runtime.
declare module '../src/index.js' {
  interface BerthErrorMetas {
    TEST_APP_CODE: { readonly widget: string; readonly count: number };
  }
}

registerErrorCode({ code: 'TEST_APP_CODE', title: 'an app code', fix: 'do the app thing' });

/** Compile-time checks: `pnpm typecheck` fails when any of these stops holding. */
describe('BerthError codes are a typed union', () => {
  it('refuses a misspelled code at compile time', () => {
    const error: unknown = jobNotFound('7f0c6b2e-8a47-4a83-9b3c-0f1b2a3c4d5e');
    // @ts-expect-error JOB_NOT_REQUEABLE is not a code
    expect(isBerthError(error, 'JOB_NOT_REQUEABLE')).toBe(false);
    // @ts-expect-error codes are a union, not any string
    const code: BerthErrorCode = 'NOT_A_CODE';
    expect(code).toBe('NOT_A_CODE');
    expectTypeOf<'JOB_INVALID'>().toExtend<BerthErrorCode>();
    expectTypeOf<'DRIVER_CLOSED'>().toExtend<BerthErrorCode>();
    expectTypeOf<'DRIVER_NOT_MIGRATED'>().toExtend<BerthErrorCode>();
  });

  it('narrows code and meta with isBerthError(error, code)', () => {
    const error: unknown = jobNotFound('7f0c6b2e-8a47-4a83-9b3c-0f1b2a3c4d5e');
    if (isBerthError(error, 'JOB_NOT_REQUEUEABLE')) {
      expectTypeOf(error.code).toEqualTypeOf<'JOB_NOT_REQUEUEABLE'>();
      expectTypeOf(error.meta.state).toEqualTypeOf<
        BerthErrorMetas['JOB_NOT_REQUEUEABLE']['state']
      >();
      // @ts-expect-error JOB_NOT_REQUEUEABLE's meta has no existingId
      expect(error.meta.existingId).toBeUndefined();
    }
    if (isBerthError(error, 'JOB_NOT_FOUND')) {
      expectTypeOf(error).toEqualTypeOf<BerthError<'JOB_NOT_FOUND'>>();
      expectTypeOf(error.meta).toEqualTypeOf<{ readonly jobId: string }>();
      expect(error.meta.jobId).toBe('7f0c6b2e-8a47-4a83-9b3c-0f1b2a3c4d5e');
    }
    if (isBerthError(error)) expectTypeOf(error.code).toEqualTypeOf<BerthErrorCode>();
  });

  it('builds errors whose meta must fit the code', () => {
    // @ts-expect-error JOB_NOT_FOUND needs meta.jobId
    expect(() => new BerthError({ code: 'JOB_NOT_FOUND', detail: 'x', meta: {} })).not.toThrow();
    const built = new BerthError({
      code: 'CONFIG_INVALID',
      detail: 'd',
      meta: { option: 'o', reason: 'r' },
    });
    expectTypeOf(built).toEqualTypeOf<BerthError<'CONFIG_INVALID'>>();
  });

  it('takes codes a driver or app adds by declaration merging', () => {
    expectTypeOf<'TEST_APP_CODE'>().toExtend<BerthErrorCode>();
    const error: unknown = new BerthError({
      code: 'TEST_APP_CODE',
      detail: 'it happened',
      meta: { widget: 'w', count: 2 },
    });
    expect(isBerthError(error, 'TEST_APP_CODE')).toBe(true);
    if (isBerthError(error, 'TEST_APP_CODE')) {
      expectTypeOf(error.meta.count).toEqualTypeOf<number>();
      expect(error.meta).toEqual({ widget: 'w', count: 2 });
      expect(error.fix).toBe('do the app thing');
    }
  });
});
