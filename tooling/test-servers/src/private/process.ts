import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** A loopback port nobody listens on at the moment of asking. */
export function freePort(): Promise<number> {
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

/** Whether something accepts TCP connections on the loopback port. */
export function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Runs a command to its end; rejects with its output when it fails. */
export function run(command: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0) resolve(output);
      else reject(new Error(`${command} ${args.join(' ')} exited with ${code}: ${output}`));
    });
  });
}

/** Waits until `ready` answers true, or throws after `timeoutMs`. */
export async function until(
  what: string,
  ready: () => Promise<boolean>,
  timeoutMs = 60_000,
  failed: () => string | undefined = () => undefined,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const failure = failed();
    if (failure !== undefined) throw new Error(`${what}: ${failure}`);
    if (await ready().catch(() => false)) return;
    await sleep(50);
  }
  throw new Error(`${what} did not answer within ${timeoutMs} ms`);
}

const cleanups = new Set<() => void>();

/**
 * Runs `cleanup` (synchronously) if this process exits while a private server still runs (a test
 * runner that gives up on a timed-out file): no server outlives the suite. Answers the unregister.
 */
export function onExit(cleanup: () => void): () => void {
  if (cleanups.size === 0) process.once('exit', runAll);
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}

function runAll(): void {
  for (const cleanup of cleanups) {
    try {
      cleanup();
    } catch {
      // best effort: the process is going away
    }
  }
}

/** A command run to its end before the process exits. */
export const runNow = (command: string, args: readonly string[]): void => {
  spawnSync(command, args, { stdio: 'ignore' });
};

/**
 * A server run as a plain child process (redis-server, nats-server): `start` spawns it and waits
 * until `ready`; `stop` sends SIGTERM (both shut down gracefully on it, flushing their store) and
 * waits for the exit.
 */
export function childServer(input: {
  readonly what: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly ready: () => Promise<boolean>;
}): { start(): Promise<void>; stop(): Promise<void>; kill(): void } {
  let child: ChildProcess | undefined;
  return {
    async start() {
      if (child !== undefined) return;
      const started = spawn(input.command, input.args, { stdio: 'ignore' });
      child = started;
      let exit: string | undefined;
      started.once('error', (error) => {
        exit = error.message;
      });
      started.once('exit', (code, signal) => {
        exit ??= `exited with ${code ?? signal}`;
        if (child === started) child = undefined;
      });
      await until(input.what, input.ready, 60_000, () => exit);
    },
    async stop() {
      const running = child;
      if (running === undefined) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGTERM');
      await exited;
    },
    kill() {
      child?.kill('SIGKILL');
    },
  };
}
