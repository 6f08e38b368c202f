import { isBerthError } from '@berth/core';
import { createMemoryDriver } from '@berth/driver-memory';
import { afterAll, describe, expect, it } from 'vitest';
import { basicAuth, createDashboard, serveDashboard } from '../src/index.js';

const driver = createMemoryDriver();
afterAll(() => driver.close());

const codeOf = async (run: () => unknown): Promise<string> => {
  try {
    await run();
    return 'answered';
  } catch (error) {
    if (isBerthError(error, 'CONFIG_INVALID')) return `${error.code}:${error.meta.option}`;
    return isBerthError(error) ? error.code : String(error);
  }
};

describe('serveDashboard', () => {
  it('serves on 127.0.0.1 by default, on a free port, and closes without closing the driver', async () => {
    const served = await serveDashboard({ driver, basePath: '/queue' });
    expect(served.host).toBe('127.0.0.1');
    expect(served.url).toBe(`http://127.0.0.1:${served.port}/queue/`);
    const page = await fetch(served.url);
    expect(page.status).toBe(200);
    await served.close();
    await expect(fetch(served.url)).rejects.toThrow();
    expect(await driver.stats()).toEqual([]);
  });

  it('refuses a non-loopback host without auth, and binds one with auth', async () => {
    expect(await codeOf(() => serveDashboard({ driver, host: '0.0.0.0' }))).toBe(
      'CONFIG_INVALID:host',
    );
    const served = await serveDashboard({
      driver,
      host: '0.0.0.0',
      auth: basicAuth({ username: 'ops', password: 'pw' }),
    });
    try {
      expect((await fetch(`http://127.0.0.1:${served.port}/`)).status).toBe(401);
    } finally {
      await served.close();
    }
    for (const host of ['localhost', '::1']) {
      const local = await serveDashboard({ driver, host });
      await local.close();
    }
  });
});

describe('createDashboard options', () => {
  it('refuses options it cannot use with CONFIG_INVALID naming the option', async () => {
    const bad = [
      [{ basePath: 'admin' }, 'basePath'],
      [{ basePath: '/a b' }, 'basePath'],
      [{ basePath: '/x/"><script>' }, 'basePath'],
      [{ refreshMs: 0 }, 'refreshMs'],
      [{ sampleMs: 120_000 }, 'sampleMs'],
      [{ deadLetterScan: 10_000 }, 'deadLetterScan'],
      [{ csrfSecret: 'short' }, 'csrfSecret'],
      [{ auth: 'yes' }, 'auth'],
      [{ schedules: { schedules: 'nightly' } }, 'schedules'],
    ] as const;
    for (const [options, option] of bad) {
      expect(await codeOf(() => createDashboard({ driver, ...(options as object) }))).toBe(
        `CONFIG_INVALID:${option}`,
      );
    }
    expect(await codeOf(() => createDashboard({ driver: {} as never }))).toBe(
      'CONFIG_INVALID:driver',
    );
    expect(await codeOf(() => basicAuth({ username: '', password: 'x' }))).toBe(
      'CONFIG_INVALID:basicAuth',
    );
  });
});
