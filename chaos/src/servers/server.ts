import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

/** `nats-cluster`: three nats-server 2.10 nodes, buckets with 3 replicas. */
export type Backend = 'pg' | 'redis' | 'nats' | 'nats-cluster';

/** A server the suite owns: killing it disturbs nobody else. */
export interface ChaosServer {
  readonly backend: Backend;
  readonly url: string;
  /** Kills the server the hardest way its backend allows (no shutdown, no flush). */
  crash(): Promise<void>;
  /** Starts it again on the same port and data directory; answers once it accepts clients. */
  restart(): Promise<void>;
  /** Stops it for good and removes its data directory. Idempotent. */
  stop(): Promise<void>;
}

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

export const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Waits until `ready` answers true, or throws after `timeoutMs`. */
export async function until(
  what: string,
  ready: () => Promise<boolean>,
  timeoutMs = 30_000,
  failed: () => string | undefined = () => undefined,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const failure = failed();
    if (failure !== undefined) throw new Error(`${what}: ${failure}`);
    if (await ready().catch(() => false)) return;
    await pause(50);
  }
  throw new Error(`${what} did not come up within ${timeoutMs} ms`);
}
