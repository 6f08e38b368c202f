import { type ChildProcess, spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { accepts, onExit, until } from '@berth/test-servers';
import type { Backend, ChaosServer } from './server.ts';

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * A server run as a plain child process (redis-server, nats-server): crash is SIGKILL, restart
 * runs the same command on the same port and directory.
 */
export async function processServer(input: {
  readonly backend: Backend;
  readonly url: string;
  readonly port: number;
  readonly dir: string;
  readonly command: string;
  readonly args: readonly string[];
  /** A server-level look that it serves (beyond accepting TCP). */
  readonly ready?: () => Promise<boolean>;
}): Promise<ChaosServer> {
  let child: ChildProcess | undefined;
  let stopped = false;
  const start = async () => {
    const started = spawn(input.command, input.args, { stdio: 'ignore' });
    child = started;
    let exit: number | null = null;
    started.once('exit', (code) => {
      exit = code ?? -1;
    });
    await until(
      `${input.backend} on port ${input.port}`,
      async () =>
        (await accepts(input.port)) && (input.ready === undefined || (await input.ready())),
      30_000,
      () => (exit === null ? undefined : `${input.command} exited with ${exit}`),
    );
  };
  const kill = async () => {
    if (child === undefined) return;
    const current = child;
    child = undefined;
    current.kill('SIGKILL');
    await exited(current);
  };
  try {
    await start();
  } catch (error) {
    // A server that never came up leaves nothing behind either.
    await kill();
    await rm(input.dir, { recursive: true, force: true });
    throw error;
  }
  const unregister = onExit(() => child?.kill('SIGKILL'));
  return {
    backend: input.backend,
    url: input.url,
    crash: kill,
    restart: start,
    async stop() {
      if (stopped) return;
      stopped = true;
      unregister();
      await kill();
      await rm(input.dir, { recursive: true, force: true });
    },
  };
}
