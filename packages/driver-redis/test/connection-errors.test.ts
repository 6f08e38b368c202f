import { isBerthError } from '@berth/core';
import { describe, expect, it } from 'vitest';
import { createRedisDriver } from '../src/index.js';

/** The refusal of one enqueue through a driver on `url`, with the driver closed. */
async function refusalAt(url: string): Promise<unknown> {
  const driver = createRedisDriver({ url });
  try {
    return await driver.enqueue({ name: 'x' }).then(
      () => new Error('the enqueue landed'),
      (error: unknown) => error,
    );
  } finally {
    await driver.close();
  }
}

function expectSocketError(error: unknown, code: string): void {
  expect(isBerthError(error, 'DRIVER_UNAVAILABLE'), String(error)).toBe(true);
  if (!isBerthError(error, 'DRIVER_UNAVAILABLE')) return;
  expect(error.detail).toContain(code);
  expect(error.meta.errorCode).toBe(code);
  expect(error.cause).toBeInstanceOf(Error);
  expect((error.cause as { code?: unknown }).code).toBe(code);
}

describe('redis connection errors say why, not "max retries per request"', () => {
  it('a refused port answers DRIVER_UNAVAILABLE naming ECONNREFUSED, the socket error as its cause', async () => {
    expectSocketError(await refusalAt('redis://127.0.0.1:1'), 'ECONNREFUSED');
  });

  it('an unresolvable host answers DRIVER_UNAVAILABLE naming ENOTFOUND', async () => {
    expectSocketError(await refusalAt('redis://berth-nowhere.invalid:6379'), 'ENOTFOUND');
  });

  it('a URL of another scheme is CONFIG_INVALID at construction, saying which schemes work', () => {
    let error: unknown;
    try {
      createRedisDriver({ url: 'postgres://postgres@127.0.0.1:5432/app' });
    } catch (thrown) {
      error = thrown;
    }
    expect(isBerthError(error, 'CONFIG_INVALID')).toBe(true);
    if (!isBerthError(error, 'CONFIG_INVALID')) return;
    expect(error.meta.option).toBe('url');
    expect(error.detail).toContain('postgres://');
    expect(error.fix).toContain('redis://');
  });
});
