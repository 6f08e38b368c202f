import { type ChildProcess, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { isBerthError } from '@berth/core';
import { freePort, onExit, until } from '@berth/test-servers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisDriver } from '../src/index.js';

/**
 * An IPv4 address of this machine that is not loopback: protected mode denies only clients that
 * do not come from loopback, and a connection to this address comes from it. The main interface
 * first (others may be test veths that come and go).
 */
function ownAddress(): string {
  const found = Object.entries(networkInterfaces()).flatMap(([name, addresses]) =>
    (addresses ?? [])
      .filter((address) => address.family === 'IPv4' && !address.internal)
      .map((address) => ({ name, address: address.address })),
  );
  const main = found.find(({ name }) => /^(eth|en|wl)/.test(name)) ?? found[0];
  if (main === undefined) {
    throw new Error(
      'this test needs a non-loopback IPv4 address on the machine (protected mode lets loopback in)',
    );
  }
  return main.address;
}

let server: ChildProcess | undefined;
let url = '';
beforeAll(async () => {
  const host = ownAddress();
  const port = await freePort();
  const started = spawn(
    'redis-server',
    ['--bind', host, '--port', String(port), '--protected-mode', 'yes', '--save', ''],
    { stdio: 'ignore' },
  );
  server = started;
  let exit: string | undefined;
  started.once('exit', (code) => {
    exit = `exited with ${code}`;
  });
  onExit(() => started.kill('SIGKILL'));
  url = `redis://${host}:${port}`;
  await until(
    `redis-server in protected mode at ${url}`,
    () => reachable(host, port),
    30_000,
    () => exit,
  );
});
afterAll(() => {
  server?.kill('SIGKILL');
});

function reachable(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('redis driver against a server in protected mode', () => {
  it('answers DRIVER_UNAVAILABLE quoting DENIED, with a fix naming protected mode and a password', async () => {
    const driver = createRedisDriver({ url, commandTimeoutMs: 2_000 });
    try {
      const refused = await driver
        .enqueue({ name: 'job', queue: 'denied' })
        .catch((error: unknown) => error);
      expect(isBerthError(refused, 'DRIVER_UNAVAILABLE'), String(refused)).toBe(true);
      if (!isBerthError(refused, 'DRIVER_UNAVAILABLE')) return;
      expect(refused.detail).toMatch(/DENIED Redis is running in protected mode/);
      expect(refused.detail).not.toMatch(/EPIPE/);
      expect(refused.fix).toMatch(/protected mode/);
      expect(refused.fix).toMatch(/password/);
      expect(refused.fix).toMatch(/protected-mode no/);
    } finally {
      await driver.close();
    }
  });
});
