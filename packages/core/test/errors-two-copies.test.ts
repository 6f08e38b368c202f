import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BerthError, isBerthError, registerErrorCode, registeredErrorCodes } from '../src/index.js';

type Core = typeof import('../src/index.js');
type CoreDriver = typeof import('../src/driver.js');

declare module '../src/index.js' {
  interface BerthErrorMetas {
    TWO_COPIES_TEST: Record<string, never>;
  }
}

/**
 * A second copy of the package's sources, loaded as modules of their own: what an app gets when
 * its driver resolved another copy of `@berth/core` than its own (a monorepo, a linked package).
 * Made under the package so its bare imports resolve to the same dependencies.
 */
const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
let copyDir = '';
let second: Core;
/** The second copy's driver entry: the error factories a driver throws with. */
let secondDriver: CoreDriver;

beforeAll(async () => {
  await mkdir(join(PACKAGE, 'test-artifacts'), { recursive: true });
  copyDir = await mkdtemp(join(PACKAGE, 'test-artifacts', 'second-copy-'));
  await cp(join(PACKAGE, 'src'), join(copyDir, 'src'), { recursive: true });
  second = (await import(/* @vite-ignore */ join(copyDir, 'src', 'index.ts'))) as Core;
  secondDriver = (await import(/* @vite-ignore */ join(copyDir, 'src', 'driver.ts'))) as CoreDriver;
}, 60_000);

afterAll(async () => {
  if (copyDir !== '') await rm(copyDir, { recursive: true, force: true });
});

describe('two copies of @berth/core in one process', () => {
  it('are two copies: each has its own BerthError class', () => {
    expect(second.BerthError).not.toBe(BerthError);
  });

  it("recognise each other's errors: isBerthError, its code narrowing, and instanceof", () => {
    const theirs = secondDriver.jobNotFound('j-1');
    expect(isBerthError(theirs)).toBe(true);
    expect(isBerthError(theirs, 'JOB_NOT_FOUND')).toBe(true);
    expect(isBerthError(theirs, 'JOB_INVALID')).toBe(false);
    expect(theirs instanceof BerthError).toBe(true);
    const ours = new BerthError({
      code: 'JOB_NOT_FOUND',
      detail: 'no job j-2',
      meta: { jobId: 'j-2' },
    });
    expect(second.isBerthError(ours, 'JOB_NOT_FOUND')).toBe(true);
    expect(ours instanceof second.BerthError).toBe(true);
    expect(isBerthError(new Error('JOB_NOT_FOUND'))).toBe(false);
    expect(new Error('plain') instanceof BerthError).toBe(false);
  });

  it('share one registry of codes: a code registered through one copy is known to the other', () => {
    registerErrorCode({ code: 'TWO_COPIES_TEST', title: 'a test code', fix: 'nothing to do' });
    expect(second.registeredErrorCodes().map((entry) => entry.code)).toContain('TWO_COPIES_TEST');
    // The second copy registered the built-in codes again as it loaded: same entries, no throw.
    expect(registeredErrorCodes().filter((entry) => entry.code === 'JOB_NOT_FOUND')).toHaveLength(
      1,
    );
    expect(() =>
      second.registerErrorCode({ code: 'TWO_COPIES_TEST', title: 'another meaning', fix: 'x' }),
    ).toThrow(/already registered/);
  });
});
