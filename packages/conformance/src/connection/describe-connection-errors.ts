import { type Driver, isBerthError } from '@berth/core';
import { describe, expect, it } from 'vitest';

export interface ConnectionErrorsOptions {
  /** The driver's name, as its errors' `meta.driver` says it. */
  readonly driver: string;
  /** A driver connecting to `url` (its first call connects). */
  readonly open: (url: string) => Driver;
  /** The option `url` is given as (`connectionString`, `url`, `servers`). */
  readonly option: string;
  /** The driver's URL scheme, which the fix for a foreign URL names (`redis://`). */
  readonly scheme: string;
  /** A URL of this driver's scheme at a port nothing listens on (127.0.0.1:1). */
  readonly refusedUrl: string;
  /** A URL of this driver's scheme whose host does not resolve (`berth-nowhere.invalid`). */
  readonly unresolvableUrl: string;
  /** A URL of another backend (`mysql://…`), refused at construction. */
  readonly foreignUrl: string;
}

/** The refusal of one enqueue through a driver on `url`, with the driver closed after. */
async function refusalAt(options: ConnectionErrorsOptions, url: string): Promise<unknown> {
  const driver = options.open(url);
  try {
    return await driver.enqueue({ name: 'x' }).then(
      () => new Error('the enqueue landed'),
      (error: unknown) => error,
    );
  } finally {
    await driver.close();
  }
}

/** Every `code` along an error's cause chain: the socket's code may sit under a client's error. */
function causeCodes(error: unknown): unknown[] {
  const codes: unknown[] = [];
  for (let at = error; at instanceof Error; at = at.cause) {
    codes.push((at as { code?: unknown }).code);
  }
  return codes;
}

function expectSocketError(options: ConnectionErrorsOptions, error: unknown, code: string) {
  expect(isBerthError(error, 'DRIVER_UNAVAILABLE'), String(error)).toBe(true);
  if (!isBerthError(error, 'DRIVER_UNAVAILABLE')) return;
  expect(error.detail).toContain(code);
  expect(error.meta).toMatchObject({ driver: options.driver, errorCode: code });
  expect(error.cause).toBeInstanceOf(Error);
  expect(causeCodes(error.cause)).toContain(code);
}

/**
 * The connection cases for a driver that talks to a server: a refused port and an unresolvable
 * host answer DRIVER_UNAVAILABLE naming the socket's code (never a raw client error or a bare
 * "max retries"), and a URL of another backend is CONFIG_INVALID at construction.
 */
export function describeConnectionErrors(options: ConnectionErrorsOptions): void {
  describe(`${options.driver} connection errors say why`, () => {
    it('a refused port answers DRIVER_UNAVAILABLE naming ECONNREFUSED, the socket error in its cause', async () => {
      expectSocketError(options, await refusalAt(options, options.refusedUrl), 'ECONNREFUSED');
    });

    it('an unresolvable host answers DRIVER_UNAVAILABLE naming ENOTFOUND', async () => {
      expectSocketError(options, await refusalAt(options, options.unresolvableUrl), 'ENOTFOUND');
    });

    it('a URL of another backend is CONFIG_INVALID at construction, saying which scheme works', () => {
      let error: unknown;
      try {
        options.open(options.foreignUrl);
      } catch (thrown) {
        error = thrown;
      }
      expect(isBerthError(error, 'CONFIG_INVALID'), String(error)).toBe(true);
      if (!isBerthError(error, 'CONFIG_INVALID')) return;
      expect(error.meta.option).toBe(options.option);
      expect(error.detail).toContain(
        options.foreignUrl.slice(0, options.foreignUrl.indexOf('//') + 2),
      );
      expect(error.fix).toContain(options.scheme);
    });
  });
}
