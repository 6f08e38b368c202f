import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, run } from '@berth/test-servers';
import { processServer } from './process-server.ts';
import type { ChaosServer, ServerOptions } from './server.ts';

/** `nats-server --version` → [major, minor]. */
async function natsVersion(): Promise<readonly [number, number]> {
  const text = await run('nats-server', ['--version']);
  const match = /v(\d+)\.(\d+)/.exec(text);
  return match === null ? [0, 0] : [Number(match[1]), Number(match[2])];
}

/**
 * The JetStream block of the config. `sync_interval: always` (fsync before every ack) exists
 * from nats-server 2.10; 2.9 refuses the field ("unknown field"), so there a single node fsyncs
 * on its default interval and only a process crash (not a machine crash) is survived.
 */
export async function jetStreamConfig(): Promise<string> {
  const [major, minor] = await natsVersion();
  const syncAlways = major > 2 || (major === 2 && minor >= 10);
  // The store dir comes from `-sd`: the server refuses it in both places.
  return syncAlways ? 'jetstream { sync_interval: always }\n' : 'jetstream: enabled\n';
}

/**
 * A private single-node nats-server with JetStream on a temp store. It takes one listen address:
 * with an island to serve it listens on every address (the island's host end among them).
 */
export async function startNats(options: ServerOptions = {}): Promise<ChaosServer> {
  const listen = options.island === undefined ? '127.0.0.1' : '0.0.0.0';
  const dir = await mkdtemp(join(tmpdir(), 'berth-chaos-nats-'));
  const port = await freePort();
  const config = join(dir, 'nats.conf');
  await writeFile(config, await jetStreamConfig());
  return processServer({
    backend: 'nats',
    url: `nats://127.0.0.1:${port}`,
    port,
    dir,
    command: 'nats-server',
    args: ['-c', config, '-js', '-sd', join(dir, 'store'), '-a', listen, '-p', String(port)],
  });
}
