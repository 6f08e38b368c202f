import { Redis } from 'ioredis';
import pg from 'pg';
import type { ServerKind, SystemRole } from '../systems/types.ts';
import { pidsNamed, processCpuUs } from './proc.ts';

/**
 * The server's CPU as one run sees it: `read()` answers µs used so far (a counter: the parent
 * subtracts a phase's start from its end), or undefined when the server's CPU cannot be seen.
 */
export interface ServerCpuMeter {
  read(): Promise<number | undefined>;
  close(): Promise<void>;
}

/**
 * How often the pg meter reads the run's backends. Pooled connections live until the child
 * closes, so 100 ms loses nothing; a floor's pgbench backend exits the moment its last
 * transaction commits, so floors are read every 10 ms (what it used since the last read is lost).
 */
export const PG_SAMPLE_MS = { pooled: 100, floor: 10 } as const;

/**
 * PostgreSQL: the backends of this run only, found by their application_name (the child's
 * PGAPPNAME) and read from /proc. A backend's last reading is kept after it exits, so the
 * sum never goes down; a backend that lives and dies between two samples is missed.
 */
async function pgMeter(
  url: string,
  applicationName: string,
  sampleMs: number,
): Promise<ServerCpuMeter> {
  const client = new pg.Client({ connectionString: url, application_name: 'berth-bench-meter' });
  // A restarted server ends this connection: the next read throws and the run is void.
  client.on('error', () => {});
  await client.connect();
  const last = new Map<number, number>();
  // The server is on this machine (and in this pid namespace) when the meter's own backend is.
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const visible = processCpuUs(rows[0]?.pid ?? 0, 'postgres') !== undefined;
  let sampling: Promise<void> | undefined;

  const sample = (): Promise<void> => {
    sampling ??= (async () => {
      const { rows } = await client.query<{ pid: number }>(
        'SELECT pid FROM pg_stat_activity WHERE application_name = $1',
        [applicationName],
      );
      for (const { pid } of rows) {
        const used = processCpuUs(pid, 'postgres');
        if (used !== undefined) last.set(pid, used);
      }
    })().finally(() => {
      sampling = undefined;
    });
    return sampling;
  };
  const timer = setInterval(() => void sample().catch(() => {}), sampleMs);

  return {
    async read() {
      await sample();
      if (!visible) return undefined;
      let total = 0;
      for (const used of last.values()) total += used;
      return total;
    },
    async close() {
      clearInterval(timer);
      await sampling?.catch(() => {});
      await client.end();
    },
  };
}

/**
 * Redis: `INFO cpu` of the whole server (other clients of a shared server count too). A server
 * restarted under the run (a new `run_id`) has lost the run's keys and reset its counters: the
 * read throws, and the run is void.
 */
async function redisMeter(url: string): Promise<ServerCpuMeter> {
  const redis = new Redis(url, { lazyConnect: true });
  redis.on('error', () => {});
  await redis.connect();
  const field = (info: string, name: string) => new RegExp(`${name}:([\\w.]+)`).exec(info)?.[1];
  const runId = field(await redis.info('server'), 'run_id');
  return {
    async read() {
      const info = await redis.info();
      if (field(info, 'run_id') !== runId) throw new Error('redis restarted during the run');
      const used = Number(field(info, 'used_cpu_user')) + Number(field(info, 'used_cpu_sys'));
      return used * 1e6;
    },
    async close() {
      redis.disconnect();
    },
  };
}

/** nats-server: its process from /proc (the whole server); a new pid means it restarted. */
function natsMeter(): ServerCpuMeter {
  const started = pidsNamed('nats-server').join(',');
  return {
    async read() {
      const pids = pidsNamed('nats-server');
      if (pids.length === 0) return undefined;
      if (pids.join(',') !== started) throw new Error('nats-server restarted during the run');
      let total = 0;
      for (const pid of pids) total += processCpuUs(pid, 'nats-server') ?? 0;
      return total;
    },
    close: async () => {},
  };
}

const noServer: ServerCpuMeter = { read: async () => 0, close: async () => {} };

export function openMeter(
  system: { server: ServerKind; role: SystemRole },
  urls: { pg: string; redis: string },
  applicationName: string,
): Promise<ServerCpuMeter> {
  switch (system.server) {
    case 'pg':
      return pgMeter(
        urls.pg,
        applicationName,
        system.role === 'floor' ? PG_SAMPLE_MS.floor : PG_SAMPLE_MS.pooled,
      );
    case 'redis':
      return redisMeter(urls.redis);
    case 'nats':
      return Promise.resolve(natsMeter());
    case 'memory':
      return Promise.resolve(noServer);
  }
}
