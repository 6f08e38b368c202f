import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { onExit, runNow } from './on-exit.ts';
import { accepts } from './process-server.ts';
import { type ChaosServer, freePort, run, until } from './server.ts';

const BIN = process.env.BERTH_CHAOS_PG_BIN ?? '/usr/lib/postgresql/15/bin';
const OS_USER = 'postgres';

/** PostgreSQL refuses to run as root: then every pg binary runs as the `postgres` OS user. */
function asServerUserArgs(binary: string, args: readonly string[]): [string, string[]] {
  const path = join(BIN, binary);
  if (process.getuid?.() !== 0) return [path, [...args]];
  return ['runuser', ['-u', OS_USER, '--', path, ...args]];
}

const asServerUser = (binary: string, args: readonly string[]): Promise<string> =>
  run(...asServerUserArgs(binary, args));

async function ownedByServerUser(dir: string): Promise<void> {
  if (process.getuid?.() !== 0) return;
  const uid = Number((await run('id', ['-u', OS_USER])).trim());
  const gid = Number((await run('id', ['-g', OS_USER])).trim());
  await chown(dir, uid, gid);
}

/**
 * A private PostgreSQL cluster (initdb into a temp dir) with the default durability settings
 * (fsync on, synchronous_commit on). A crash is `pg_ctl stop -m immediate`: no checkpoint, the
 * next start replays the WAL.
 */
export async function startPg(): Promise<ChaosServer> {
  const dir = await mkdtemp(join(tmpdir(), 'berth-chaos-pg-'));
  await ownedByServerUser(dir);
  const data = join(dir, 'data');
  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200`;
  const serves = async () => {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query('select 1');
      return true;
    } finally {
      await client.end().catch(() => {});
    }
  };
  const start = async () => {
    await asServerUser('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), 'start']);
    await until(`postgres on port ${port}`, async () => (await accepts(port)) && (await serves()));
  };
  const crash = async () => {
    await asServerUser('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
  };
  try {
    await asServerUser('initdb', ['-D', data, '-U', OS_USER, '-A', 'trust', '--no-sync']);
    await start();
  } catch (error) {
    // A cluster that never came up leaves nothing behind either.
    await crash().catch(() => {});
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const unregister = onExit(() =>
    runNow(...asServerUserArgs('pg_ctl', ['-D', data, '-m', 'immediate', 'stop'])),
  );
  let stopped = false;
  return {
    backend: 'pg',
    url,
    crash,
    restart: start,
    async stop() {
      if (stopped) return;
      stopped = true;
      unregister();
      await crash().catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
}
