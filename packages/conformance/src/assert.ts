import { type BerthError, type BerthErrorCode, isBerthError } from '@berth/core';
import { expect } from 'vitest';

/**
 * Awaits `promise` and asserts it rejected with a BerthError of `code` whose `meta` holds every
 * entry of `meta` (deep-equal). Answers the error for further checks.
 */
export async function expectRefusal<C extends BerthErrorCode>(
  promise: Promise<unknown>,
  code: C,
  meta?: Readonly<Record<string, unknown>>,
): Promise<BerthError<C>> {
  let settled: { ok: true; value: unknown } | { ok: false; error: unknown };
  try {
    settled = { ok: true, value: await promise };
  } catch (error) {
    settled = { ok: false, error };
  }
  if (settled.ok) {
    throw new Error(
      `expected a ${code} refusal, but the call answered ${JSON.stringify(settled.value)}`,
    );
  }
  const { error } = settled;
  if (!isBerthError(error)) {
    throw new Error(`expected a BerthError ${code}, got a raw ${String(error)}`, { cause: error });
  }
  expect(error.code, error.message).toBe(code);
  if (meta !== undefined) expect(error.meta).toMatchObject(meta);
  expect(typeof error.fix).toBe('string');
  expect(error.fix.length).toBeGreaterThan(0);
  return error as BerthError<C>;
}
