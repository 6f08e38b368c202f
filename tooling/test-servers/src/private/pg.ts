import { existsSync, readdirSync } from 'node:fs';
import { appendFile, chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort, onExit, run, runNow, until } from './process.js';

/** PostgreSQL's binaries: `BERTH_PG_BIN`, else the newest Debian cluster's, else PATH. */
function binDir(): string | undefined {
  const fromEnv = process.env.BERTH_PG_BIN;
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((version) => existsSync(join(root, version, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

const OS_USER = 'postgres';

/** PostgreSQL refuses to run as root: then every pg binary runs as the `postgres` OS user. */
function asServerUser(binary: string, args: readonly string[]): [string, string[]] {
  const dir = binDir();
  const path = dir === undefined ? binary : join(dir, binary);
  if (process.getuid?.() !== 0) return [path, [...args]];
  return ['runuser', ['-u', OS_USER, '--', path, ...args]];
}

async function ownedByServerUser(dir: string): Promise<void> {
  if (process.getuid?.() !== 0) return;
  const uid = Number((await run('id', ['-u', OS_USER])).trim());
  const gid = Number((await run('id', ['-g', OS_USER])).trim());
  await chown(dir, uid, gid);
}

async function serves(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } finally {
    await client.end().catch(() => {});
  }
}

/** A private PostgreSQL cluster of {@link startPrivatePg}. */
export interface PrivatePg {
  readonly port: number;
  /** `pg_ctl stop -m fast`: sessions end, committed work is kept. */
  stop(): Promise<void>;
  /** `pg_ctl stop -m immediate`: no checkpoint; the next start replays the WAL. */
  crash(): Promise<void>;
  /**
   * SIGKILL of the postmaster and of every process it started, at once: nothing is flushed on the
   * way down (unlike `crash`, whose backends still answer their SIGQUIT); the next start recovers.
   */
  kill(): Promise<void>;
  start(): Promise<void>;
  dispose(): Promise<void>;
}

/** Whether `pid` runs (a zombie, dead but not yet reaped by its parent, does not). */
async function runs(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return stat !== '' && !/^\d+ \(.*\) Z/.test(stat);
}

/** SIGKILL of `postmaster` and its children; answers once the postmaster is gone. */
async function killAll(postmaster: number): Promise<void> {
  // Stopped first, so it cannot start a child (or a recovery) while its children die.
  process.kill(postmaster, 'SIGSTOP');
  const children = await readFile(`/proc/${postmaster}/task/${postmaster}/children`, 'utf8');
  for (const child of children.split(' ').filter((pid) => pid.trim() !== '')) {
    try {
      process.kill(Number(child), 'SIGKILL');
    } catch {
      // gone already
    }
  }
  process.kill(postmaster, 'SIGKILL');
  await until(`postmaster ${postmaster} to die`, async () => !(await runs(postmaster)), 10_000);
}

/** How {@link startPrivatePg} sets its cluster up beyond the defaults. */
export interface PrivatePgOptions {
  /** Keeps PostgreSQL's default fsync (a crash test needs it; a restart test runs faster without). */
  readonly durable?: boolean;
  readonly maxConnections?: number;
  /** Addresses it listens on besides 127.0.0.1 (a chaos island's end of its veth pair). */
  readonly listen?: readonly string[];
  /** Client networks (`a.b.c.d/n`) it trusts besides loopback, for those addresses. */
  readonly trust?: readonly string[];
  /** Further settings, each passed as `-c name=value` (`synchronous_commit: 'off'`). */
  readonly settings?: Readonly<Record<string, string>>;
}

/**
 * A private PostgreSQL cluster (initdb into a temporary directory, trust auth) on a free loopback
 * port.
 */
export async function startPrivatePg(input: PrivatePgOptions = {}): Promise<PrivatePg> {
  const dir = await mkdtemp(join(tmpdir(), 'berth-private-pg-'));
  await ownedByServerUser(dir);
  const data = join(dir, 'data');
  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const options = [
    `-p ${port} -k ${dir} -c listen_addresses=${['127.0.0.1', ...(input.listen ?? [])].join(',')}`,
    input.durable === true ? '' : '-c fsync=off',
    input.maxConnections === undefined ? '' : `-c max_connections=${input.maxConnections}`,
    ...Object.entries(input.settings ?? {}).map(([name, value]) => `-c ${name}=${value}`),
  ].join(' ');
  let running = false;
  const start = async () => {
    if (running) return;
    await run(
      ...asServerUser('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), 'start']),
    );
    running = true;
    await until(`a private postgres on port ${port}`, () => serves(url));
  };
  const stop = async () => {
    if (!running) return;
    running = false;
    await run(...asServerUser('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']));
  };
  const crash = async () => {
    if (!running) return;
    running = false;
    await run(...asServerUser('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']));
  };
  const kill = async () => {
    if (!running) return;
    running = false;
    const pidFile = await readFile(join(data, 'postmaster.pid'), 'utf8');
    await killAll(Number(pidFile.split('\n')[0]));
  };
  try {
    await run(...asServerUser('initdb', ['-D', data, '-U', OS_USER, '-A', 'trust', '--no-sync']));
    for (const network of input.trust ?? []) {
      await appendFile(join(data, 'pg_hba.conf'), `host all all ${network} trust\n`);
    }
    await start();
  } catch (error) {
    await stop().catch(() => {});
    await rm(dir, { recursive: true, force: true });
    throw new Error(
      'could not start a private postgres (apt-get install postgresql, or set BERTH_PG_BIN to its bin directory)',
      { cause: error },
    );
  }
  const unregister = onExit(() =>
    runNow(...asServerUser('pg_ctl', ['-D', data, '-m', 'immediate', 'stop'])),
  );
  return {
    port,
    start,
    stop,
    crash,
    kill,
    dispose: async () => {
      unregister();
      await stop().catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
}
