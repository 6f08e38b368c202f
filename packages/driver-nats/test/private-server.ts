import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { answers } from '@berth/test-servers';

/** The nats-server binary: on PATH, or where the Debian package puts it. */
function binary(): string {
  for (const candidate of ['/usr/sbin/nats-server', '/usr/bin/nats-server']) {
    if (existsSync(candidate)) return candidate;
  }
  try {
    return execFileSync('which', ['nats-server'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error(
      'the fault test starts a private nats-server and none is installed: apt-get install nats-server',
    );
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * A nats-server of the test's own, with JetStream on a temporary store, on a free loopback port:
 * stopping and starting it disturbs nobody else. `stop` is a graceful shutdown (the store is
 * flushed, as in a restart); `start` brings it back on the same port and store.
 */
export interface PrivateServer {
  readonly url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Stops it for good and removes its store. */
  dispose(): Promise<void>;
}

export async function privateServer(): Promise<PrivateServer> {
  const executable = binary();
  const port = await freePort();
  const store = mkdtempSync(join(tmpdir(), 'berth-nats-'));
  const url = `nats://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;

  const start = async () => {
    if (child !== undefined) return;
    const started = spawn(
      executable,
      ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', store],
      {
        stdio: 'ignore',
      },
    );
    child = started;
    started.once('exit', () => {
      if (child === started) child = undefined;
    });
    for (let tries = 0; tries < 200; tries += 1) {
      if (await answers(url, 200)) return;
      await sleep(25);
    }
    throw new Error(`the private nats-server did not answer at ${url}`);
  };

  const stop = async () => {
    const running = child;
    if (running === undefined) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  };

  await start();
  return {
    url,
    start,
    stop,
    dispose: async () => {
      await stop();
      rmSync(store, { recursive: true, force: true });
    },
  };
}
