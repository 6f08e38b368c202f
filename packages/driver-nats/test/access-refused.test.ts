import { spawn } from 'node:child_process';
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

  it('a permission violation gets a fix of its own; other errors keep the default', () => {
    const named = (name: string, message: string) => Object.assign(new Error(message), { name });
    expect(
      accessFix(named('PermissionViolationError', 'Permissions Violation for Publish')),
    ).toMatch(/permissions/);
    expect(accessFix(named('Error', 'connection refused'))).toBeUndefined();
  });
});
