import { BerthError, type BerthErrorCode, isBerthError, registerErrorCode } from '@berth/core';
import { describe, expect, expectTypeOf, it } from 'vitest';

// A driver's own code, added exactly as a driver package outside core does it.
declare module '@berth/core' {
  interface BerthErrorMetas {
    TEST_MEMORY_FULL: { readonly rows: number };
  }
}

registerErrorCode({
  code: 'TEST_MEMORY_FULL',
  title: 'the memory driver holds too many rows',
  fix: 'purge settled jobs with driver.purge({ states: ["completed"], olderThan: Date.now() })',
});

describe("a driver's own error code, added by declaration merging on '@berth/core'", () => {
  it('joins the code union, builds, and narrows its meta', () => {
    expectTypeOf<'TEST_MEMORY_FULL'>().toExtend<BerthErrorCode>();
    const error: unknown = new BerthError({
      code: 'TEST_MEMORY_FULL',
      detail: 'the store holds 10 rows',
      meta: { rows: 10 },
    });
    expect(isBerthError(error, 'TEST_MEMORY_FULL')).toBe(true);
    if (isBerthError(error, 'TEST_MEMORY_FULL')) {
      expectTypeOf(error.meta.rows).toEqualTypeOf<number>();
      expect(error.meta.rows).toBe(10);
    }
    const wrongMeta = { rows: 'x' };
    // @ts-expect-error the meta must fit the code's declared shape
    const built = new BerthError({ code: 'TEST_MEMORY_FULL', detail: 'd', meta: wrongMeta });
    expect(built.meta).toEqual({ rows: 'x' });
  });
});
