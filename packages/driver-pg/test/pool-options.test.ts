import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { isBerthError } from '@berth/core';
import { pollUntil, serverUrl } from '@berth/test-servers';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPgDriver, type PgPoolOptions } from '../src/index.js';
import { adminPool, openPgDriver } from './pg-factory.js';

// The seam: every pg.Pool the driver opens is recorded, so a test can ask its connections.
const RealPool = pg.Pool;
const opened: pg.Pool[] = [];
class RecordedPool extends RealPool {
  constructor(config?: pg.PoolConfig) {
    super(config);
    opened.push(this);
  }
}
beforeAll(() => {
  (pg as { Pool: typeof pg.Pool }).Pool = RecordedPool;
});
afterAll(() => {
  (pg as { Pool: typeof pg.Pool }).Pool = RealPool;
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** A URL whose sessions carry a name of their own, to be counted in pg_stat_activity. */
async function namedUrl(): Promise<{ url: string; name: string }> {
  const name = `berth_${randomUUID().slice(0, 8)}`;
  const url = new URL(await serverUrl('pg'));
  url.searchParams.set('application_name', name);
  return { url: url.toString(), name };
}

async function sessionsNamed(name: string): Promise<number> {
  const admin = await adminPool();
  const { rows } = await admin.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1',
    [name],
  );
  return rows[0]?.n ?? 0;
}

/** The driver's own pool, opened just now, and a setting of one of its connections. */
async function shown(pool: pg.Pool | undefined, setting: string): Promise<string | undefined> {
  if (pool === undefined) throw new Error('the driver opened no pool');
  const { rows } = await pool.query<Record<string, string>>(`SHOW ${setting}`);
  return rows[0]?.[setting];
}

/** An admin session that holds `schema.jobs` locked, so every driver statement on it waits. */
async function lockJobs(schema: string): Promise<{ release(): Promise<void> }> {
  const client = new pg.Client({ connectionString: await serverUrl('pg') });
  client.on('error', () => {});
  await client.connect();
  await client.query('BEGIN');
  await client.query(`LOCK TABLE "${schema}".jobs IN ACCESS EXCLUSIVE MODE`);
  return {
    async release() {
      await client.query('ROLLBACK');
      await client.end();
    },
  };
}

describe('pg driver pool options', () => {
  it('with no poolOptions, the connections keep alive and end a transaction left idle for a minute', async () => {
    const keepAlive = vi.spyOn(net.Socket.prototype, 'setKeepAlive');
    const admin = await adminPool();
    const serverDefault = (
      await admin.query<{ statement_timeout: string }>('SHOW statement_timeout')
    ).rows[0]?.statement_timeout;
    const before = opened.length;
    const driver = createPgDriver({ connectionString: await serverUrl('pg') });
    try {
      const pool = opened[before];
      expect(await shown(pool, 'idle_in_transaction_session_timeout')).toBe('1min');
      expect(await shown(pool, 'statement_timeout')).toBe(serverDefault);
      expect(await shown(pool, 'application_name')).toBe('berth');
      expect(keepAlive).toHaveBeenCalledWith(true, 10_000);
      expect(pool?.options).toMatchObject({
        max: 10,
        connectionTimeoutMillis: 10_000,
        idleTimeoutMillis: 10_000,
      });
    } finally {
      await driver.close();
    }
  });

  it('statementTimeoutMs and idleInTransactionSessionTimeoutMs are settings of each connection', async () => {
    const before = opened.length;
    const options: PgPoolOptions = {
      statementTimeoutMs: 1_234,
      idleInTransactionSessionTimeoutMs: 4_321,
    };
    const driver = createPgDriver({
      connectionString: await serverUrl('pg'),
      poolOptions: options,
    });
    try {
      const pool = opened[before];
      expect(await shown(pool, 'statement_timeout')).toBe('1234ms');
      expect(await shown(pool, 'idle_in_transaction_session_timeout')).toBe('4321ms');
    } finally {
      await driver.close();
    }
  });

  it('a 0 session timeout leaves the server setting; an application_name in the URL wins', async () => {
    const { url, name } = await namedUrl();
    const before = opened.length;
    const driver = createPgDriver({
      connectionString: url,
      poolOptions: { idleInTransactionSessionTimeoutMs: 0 },
    });
    try {
      expect(await shown(opened[before], 'idle_in_transaction_session_timeout')).toBe('0');
      expect(await shown(opened[before], 'application_name')).toBe(name);
    } finally {
      await driver.close();
    }
  });

  it('a call whose statement runs past statementTimeoutMs is cancelled and answers DRIVER_UNAVAILABLE', async () => {
    const { driver, schema, dispose } = await openPgDriver({
      poolOptions: { statementTimeoutMs: 300 },
    });
    const lock = await lockJobs(schema);
    try {
      const started = Date.now();
      const error = await driver.enqueue({ name: 'slow', payload: {} }).catch((e: unknown) => e);
      expect(isBerthError(error, 'DRIVER_UNAVAILABLE'), String(error)).toBe(true);
      expect((error as Error).cause).toMatchObject({ code: '57014' }); // query_canceled
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await lock.release();
      await dispose();
    }
  });

  it('max bounds the connections the driver holds at once; the calls past it wait their turn', async () => {
    const { url, name } = await namedUrl();
    const { driver, schema, dispose } = await openPgDriver({
      connectionString: url,
      poolOptions: { max: 2 },
    });
    const lock = await lockJobs(schema);
    try {
      const calls = Array.from({ length: 6 }, (_, i) =>
        driver.enqueue({ name: 'waits', payload: { i } }),
      );
      await pollUntil(async () => (await sessionsNamed(name)) >= 2, { withinMs: 5_000 });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await sessionsNamed(name)).toBe(2);
      await lock.release();
      expect(await Promise.all(calls)).toHaveLength(6);
      expect(await sessionsNamed(name)).toBe(2);
    } finally {
      await lock.release().catch(() => {});
      await dispose();
    }
  });

  it('idleTimeoutMs closes a connection left idle that long', async () => {
    const { url, name } = await namedUrl();
    const { driver, dispose } = await openPgDriver({
      connectionString: url,
      poolOptions: { idleTimeoutMs: 200 },
    });
    try {
      await driver.enqueue({ name: 'once', payload: {} });
      expect(await sessionsNamed(name)).toBe(1);
      await pollUntil(async () => (await sessionsNamed(name)) === 0, { withinMs: 5_000 });
    } finally {
      await dispose();
    }
  });

  it('connectionTimeoutMs bounds opening a connection to a server that never answers', async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    const connectionString = `postgres://postgres@127.0.0.1:${port}/test`;
    const bounded = createPgDriver({ connectionString, poolOptions: { connectionTimeoutMs: 300 } });
    const byDefault = createPgDriver({ connectionString });
    try {
      const started = Date.now();
      const waiting = byDefault.get(randomUUID()).then(
        () => 'answered',
        () => 'failed',
      );
      const error = await bounded.get(randomUUID()).catch((e: unknown) => e);
      expect(isBerthError(error, 'DRIVER_UNAVAILABLE'), String(error)).toBe(true);
      expect(Date.now() - started).toBeLessThan(3_000);
      // The default (10 s) is still waiting, a second in.
      const late = new Promise((resolve) => setTimeout(resolve, 1_000, 'waiting'));
      expect(await Promise.race([waiting, late])).toBe('waiting');
    } finally {
      for (const socket of sockets) socket.destroy();
      await bounded.close();
      await byDefault.close();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('keepAlive false opens connections without TCP keepalive', async () => {
    const keepAlive = vi.spyOn(net.Socket.prototype, 'setKeepAlive');
    const before = opened.length;
    const driver = createPgDriver({
      connectionString: await serverUrl('pg'),
      poolOptions: { keepAlive: false },
    });
    try {
      await shown(opened[before], 'server_version');
      expect(keepAlive).not.toHaveBeenCalled();
    } finally {
      await driver.close();
    }
  });

  it('keepAliveInitialDelayMs is the idle time before the first probe', async () => {
    const keepAlive = vi.spyOn(net.Socket.prototype, 'setKeepAlive');
    const before = opened.length;
    const driver = createPgDriver({
      connectionString: await serverUrl('pg'),
      poolOptions: { keepAliveInitialDelayMs: 2_500 },
    });
    try {
      await shown(opened[before], 'server_version');
      expect(keepAlive).toHaveBeenCalledWith(true, 2_500);
    } finally {
      await driver.close();
    }
  });
});
