import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BerthError, type Driver, isBerthError } from '@berth/core';
import { createNatsDriver } from '@berth/driver-nats';
import { createPgDriver } from '@berth/driver-pg';
import { createRedisDriver } from '@berth/driver-redis';
import { serverUrl } from '@berth/test-servers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { berth, errorDoc } from './support/berth.js';
import { redisTarget, type Target } from './support/targets.js';

/** A port nothing listens on: bound by the OS, then released. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** The error the driver itself gives for `stats()` on `driver`. */
async function driverError(driver: Driver): Promise<BerthError> {
  try {
    const error = await driver.stats().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    if (!isBerthError(error)) throw new Error(`expected a BerthError, got ${String(error)}`);
    return error;
  } finally {
    await driver.close();
  }
}

describe('connection refusals exit 1 with the error and its fix', () => {
  it('a stopped server (a port nothing listens on) answers the driver’s own DRIVER_UNAVAILABLE and fix', async () => {
    const port = await deadPort();
    const pgUrl = `postgres://postgres@127.0.0.1:${port}/test`;
    const redisUrl = `redis://127.0.0.1:${port}`;
    const natsUrl = `nats://127.0.0.1:${port}`;
    for (const [url, driver] of [
      [pgUrl, createPgDriver({ connectionString: pgUrl })],
      [redisUrl, createRedisDriver({ url: redisUrl })],
      [natsUrl, createNatsDriver({ servers: natsUrl })],
    ] as const) {
      const expected = (await driverError(driver)).toJSON();
      const ran = await berth(['stats', '--url', url, '--json']);
      expect(ran.code, url).toBe(1);
      expect(ran.stdout).toBe('');
      expect(errorDoc(ran), url).toEqual(expected);
      expect(expected.code).toBe('DRIVER_UNAVAILABLE');
      expect(expected.detail).toMatch(/ECONNREFUSED|connection refused/);

      const text = await berth(['stats', '--url', url]);
      expect(text.code).toBe(1);
      expect(text.stderr).toBe(`DRIVER_UNAVAILABLE ${expected.detail}\nfix: ${expected.fix}\n`);
    }
  });

  it('a wrong URL (no such database, no such host) answers the driver’s error and fix', async () => {
    const base = new URL(await serverUrl('pg'));
    base.pathname = '/berth_no_such_database';
    const noDatabase = base.toString();
    const noHost = 'redis://berth-cache.invalid:6379';
    const noNatsHost = 'nats://berth-nats.invalid:4222';
    for (const [url, driver] of [
      [noDatabase, createPgDriver({ connectionString: noDatabase })],
      [noHost, createRedisDriver({ url: noHost })],
      [noNatsHost, createNatsDriver({ servers: noNatsHost })],
    ] as const) {
      const expected = (await driverError(driver)).toJSON();
      const ran = await berth(['stats', '--url', url, '--json']);
      expect(ran.code, url).toBe(1);
      // A missing database is no outage: its fix names the part of --url to correct.
      expect(errorDoc(ran), url).toEqual(
        url === noDatabase
          ? { ...expected, fix: expect.stringMatching(/^the database in --url does not exist/) }
          : expected,
      );
      expect(expected.code).toBe('DRIVER_UNAVAILABLE');
      // The backend's own words reach the operator: the database, or the host, it could not find.
      expect(expected.detail).toMatch(url === noDatabase ? /berth_no_such_database/ : /ENOTFOUND/);
    }
  });

  it('a scheme berth cannot open is CONFIG_INVALID naming the schemes it can', async () => {
    const mysql = await berth(['stats', '--url', 'mysql://root@127.0.0.1/app']);
    expect(mysql.code).toBe(1);
    expect(mysql.stderr).toMatch(/^CONFIG_INVALID --url scheme mysql: is not one berth can open/);
    expect(mysql.stderr).toMatch(
      /^fix: --url takes a postgres:\/\/, .+redis:\/\/.+nats:\/\/ URL.+; e\.g\. berth stats --url /m,
    );
    const notUrl = await berth(['stats', '--url', 'localhost:5432', '--json']);
    expect(notUrl.code).toBe(1);
    expect(errorDoc(notUrl)).toMatchObject({ code: 'CONFIG_INVALID', meta: { option: '--url' } });
  });
});

describe('driver packages are optional and loaded on demand', () => {
  const here = fileURLToPath(new URL('..', import.meta.url));
  const workspace = (name: string) => realpathSync(join(here, 'node_modules', name));
  let root: string;
  let target: Target;

  // An install of @berth/cli with its own dependencies and nothing else: no driver next to it,
  // then @berth/driver-redis without ioredis.
  beforeAll(async () => {
    target = await redisTarget();
    root = mkdtempSync(join(tmpdir(), 'berth-cli-install-'));
    const modules = join(root, 'node_modules');
    const cli = join(modules, '@berth', 'cli');
    mkdirSync(cli, { recursive: true });
    for (const part of ['bin', 'dist', 'package.json'])
      cpSync(join(here, part), join(cli, part), { recursive: true });
    for (const dependency of ['@berth/core', 'commander', 'picocolors', 'cli-table3']) {
      symlinkSync(workspace(dependency), join(modules, dependency));
    }
  });
  afterAll(async () => {
    rmSync(root, { recursive: true, force: true });
    await target.dispose();
  });

  it('a missing driver package is DRIVER_NOT_INSTALLED naming the package to install', async () => {
    const bin = join(root, 'node_modules', '@berth', 'cli', 'bin', 'berth.js');
    const pg = await berth(
      ['stats', '--url', 'postgres://postgres@127.0.0.1:5432/test', '--json'],
      { binary: bin },
    );
    expect(pg.code).toBe(1);
    expect(errorDoc(pg)).toMatchObject({
      code: 'DRIVER_NOT_INSTALLED',
      meta: { package: '@berth/driver-pg' },
      fix: expect.stringContaining('npm install --global @berth/driver-pg pg'),
    });

    // The driver installed, its client library not: the library is what to install.
    const redisDriver = join(root, 'node_modules', '@berth', 'driver-redis');
    const source = workspace('@berth/driver-redis');
    mkdirSync(redisDriver);
    for (const part of ['dist', 'package.json'])
      cpSync(join(source, part), join(redisDriver, part), { recursive: true });
    const redis = await berth(['stats', ...target.flags], { binary: bin });
    expect(redis.code).toBe(1);
    expect(redis.stderr).toMatch(/^DRIVER_NOT_INSTALLED .*ioredis is not installed/);
    expect(redis.stderr).toContain(
      'fix: install them where @berth/cli is: npm install --global @berth/driver-redis ioredis',
    );
  });
});
