import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isBerthError } from '@berth/core';
import { accepts, freePort, natsServerBinary, onExit, until } from '@berth/test-servers';
import { describe, expect, it } from 'vitest';
import { accessFix } from '../src/access-refused.js';
import { createNatsDriver } from '../src/index.js';

describe('a server that refuses the user', () => {
  it('wrong credentials: the fix names the servers url, not a recovery that will not come', async () => {
    // A private nats-server that requires a user: the shared one admits anybody.
    const port = await freePort();
    const server = spawn(
      natsServerBinary('2.10').path,
      ['-a', '127.0.0.1', '-p', String(port), '--user', 'berth', '--pass', 'right'],
      { stdio: 'ignore' },
    );
    const unregister = onExit(() => server.kill('SIGKILL'));
    const driver = createNatsDriver({ servers: `nats://berth:wrong@127.0.0.1:${port}` });
    try {
      await until(`a private nats-server on ${port}`, () => accepts(port));
      const error = await driver.stats().then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(isBerthError(error, 'DRIVER_UNAVAILABLE'), String(error)).toBe(true);
      if (!isBerthError(error, 'DRIVER_UNAVAILABLE')) return;
      expect(error.detail).toContain('Authorization Violation');
      expect(error.fix).toMatch(/user and password \(or token\) in servers/);
      expect(error.fix).not.toContain('recovers by itself');
    } finally {
      await driver.close();
      server.kill();
      unregister();
    }
  });

  it('a user the JetStream API refuses: the call fails at once with the permissions fix, not at its timeout', async () => {
    const port = await freePort();
    const dir = await mkdtemp(join(tmpdir(), 'berth-nats-perm-'));
    const config = join(dir, 'server.conf');
    // Everything but the JetStream API: the driver's first request is refused by the server.
    await writeFile(
      config,
      `listen: 127.0.0.1:${port}\njetstream { store_dir: "${dir}" }\n` +
        'authorization { users = [ { user: berth, password: right, permissions: { publish: { deny: ["$JS.API.>"] } } } ] }\n',
    );
    const server = spawn(natsServerBinary('2.10').path, ['-c', config], { stdio: 'ignore' });
    const unregister = onExit(() => server.kill('SIGKILL'));
    const driver = createNatsDriver({
      servers: `nats://berth:right@127.0.0.1:${port}`,
      timeoutMs: 60_000,
    });
    try {
      await until(`a private nats-server on ${port}`, () => accepts(port));
      const started = Date.now();
      const error = await driver.stats().then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(isBerthError(error, 'DRIVER_UNAVAILABLE'), String(error)).toBe(true);
      if (!isBerthError(error, 'DRIVER_UNAVAILABLE')) return;
      expect(error.detail, error.detail).toContain('Permissions Violation');
      expect(error.fix).toMatch(/lacks the permissions Berth needs/);
      // Refused by the server, so told at once: a request left to its timeout would take 60 s.
      expect(Date.now() - started).toBeLessThan(30_000);
    } finally {
      await driver.close();
      server.kill();
      unregister();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('right credentials in the servers url connect (nats.js alone would connect as nobody)', async () => {
    const port = await freePort();
    const server = spawn(
      natsServerBinary('2.10').path,
      ['-a', '127.0.0.1', '-p', String(port), '-js', '--user', 'berth', '--pass', 'r!ght'],
      { stdio: 'ignore' },
    );
    const unregister = onExit(() => server.kill('SIGKILL'));
    const driver = createNatsDriver({ servers: `nats://berth:r%21ght@127.0.0.1:${port}` });
    try {
      await until(`a private nats-server on ${port}`, () => accepts(port));
      // A fresh server: connected and answering, with no queue yet.
      await expect(driver.stats()).resolves.toEqual([]);
    } finally {
      await driver.close();
      server.kill();
      unregister();
    }
  });

  it('a permission violation gets a fix of its own; other errors keep the default', () => {
    const named = (name: string, message: string) => Object.assign(new Error(message), { name });
    expect(
      accessFix(named('PermissionViolationError', 'Permissions Violation for Publish')),
    ).toMatch(/permissions/);
    expect(accessFix(named('Error', 'connection refused'))).toBeUndefined();
  });
});
