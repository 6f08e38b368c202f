import { randomUUID } from 'node:crypto';
import { isBerthError } from '@berth/core';
import { serverUrl } from '@berth/test-servers';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { createPgDriver } from '../src/index.js';
import { adminPool, dropSchema, freshSchema, openPgDriver } from './pg-factory.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(done: () => Promise<boolean> | boolean, withinMs = 10_000) {
  const deadline = Date.now() + withinMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await pause(10);
  }
}

/**
 * Runs `batch` while another session holds, uncommitted, a job with key `k` of name `n`: the
 * batch reads the table without it, then its insert waits on that session, which commits.
 */
async function batchAgainstConcurrentHolder<T>(
  batch: (driver: ReturnType<typeof createPgDriver>) => Promise<T>,
) {
  const { driver, schema, dispose } = await openPgDriver();
  const blocker = await (await adminPool()).connect();
  try {
    await blocker.query('BEGIN');
    const inTransaction = createPgDriver({ executor: blocker, schema });
    const holder = await inTransaction.enqueue({ name: 'n', idempotencyKey: 'k' });
    const outcome = batch(driver).then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    await until(async () => {
      const { rows } = await (await adminPool()).query(
        `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1`,
        [`%"${schema}".jobs%`],
      );
      return rows.length > 0;
    });
    await blocker.query('COMMIT');
    const answered = await outcome;
    const rows = (await driver.list({ limit: 500 })).jobs.map((job) => job.name);
    return { answered, holder, rows };
  } finally {
    await blocker.query('ROLLBACK').catch(() => {});
    blocker.release();
    await dispose();
  }
}

describe('pg enqueueMany racing a concurrent holder of a key', () => {
  it('stays atomic: an item refused as JOB_DUPLICATE lands nothing from its batch', async () => {
    const { answered, holder, rows } = await batchAgainstConcurrentHolder((driver) =>
      driver.enqueueMany([
        { name: 'n', idempotencyKey: 'k', onConflict: 'error' },
        { name: 'other' },
      ]),
    );
    expect('error' in answered).toBe(true);
    if (!('error' in answered)) return;
    expect(isBerthError(answered.error, 'JOB_DUPLICATE')).toBe(true);
    if (!isBerthError(answered.error, 'JOB_DUPLICATE')) return;
    expect(answered.error.meta.existingId).toBe(holder.id);
    expect(rows).toEqual(['n']);
  });

  it('dedupes every item of the key to the holder that won, never to an item that did not land', async () => {
    const { answered, holder, rows } = await batchAgainstConcurrentHolder((driver) =>
      driver.enqueueMany([
        { name: 'n', idempotencyKey: 'k' },
        { name: 'n', idempotencyKey: 'k' },
      ]),
    );
    expect(answered).toEqual({
      value: [
        { id: holder.id, runId: holder.runId, deduped: true },
        { id: holder.id, runId: holder.runId, deduped: true },
      ],
    });
    expect(rows).toEqual(['n']);
  });
});

describe('pg wake listener', () => {
  it('a subscribe during the reconnect backoff leaves one listener connection, which close ends, and no doubled wake-ups', async () => {
    const schema = freshSchema();
    const appName = `berth-review-${randomUUID().slice(0, 8)}`;
    const pool = new pg.Pool({
      connectionString: await serverUrl('pg'),
      application_name: appName,
      max: 2,
    });
    pool.on('error', () => {});
    const driver = createPgDriver({ pool, schema });
    const listenerPids = async () => {
      const { rows } = await (await adminPool()).query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND query LIKE 'LISTEN %'`,
        [appName],
      );
      return rows.map((row) => row.pid);
    };
    const end = pg.Client.prototype.end;
    try {
      await driver.migrate();
      const first: string[] = [];
      const second: string[] = [];
      const stopFirst = await driver.subscribe?.(['wake'], (queue) => first.push(queue));
      if (stopFirst === undefined) throw new Error('the pg driver should offer subscribe');
      const [pid] = await listenerPids();

      // The listener ends the client it lost at once, and only then waits out its backoff.
      let noticed = () => {};
      const lost = new Promise<void>((resolve) => {
        noticed = resolve;
      });
      vi.spyOn(pg.Client.prototype, 'end').mockImplementation(function (this: pg.Client) {
        noticed();
        return (end as () => Promise<void>).call(this);
      } as typeof end);
      await (await adminPool()).query('SELECT pg_terminate_backend($1)', [pid]);
      await lost;
      vi.restoreAllMocks();
      const stopSecond = await driver.subscribe?.(['wake'], (queue) => second.push(queue));
      if (stopSecond === undefined) throw new Error('the pg driver should offer subscribe');

      // Past the backoff: still exactly one listener, and the lost one's subscriber was woken.
      await pause(400);
      expect(await listenerPids()).toHaveLength(1);
      expect(first.length).toBeGreaterThan(0);

      first.length = 0;
      second.length = 0;
      await driver.enqueue({ name: 'x', queue: 'wake' });
      await until(() => first.length > 0 && second.length > 0);
      await pause(200);
      expect(first).toEqual(['wake']);
      expect(second).toEqual(['wake']);

      await stopFirst();
      await stopSecond();
      await driver.close();
      await until(async () => (await listenerPids()).length === 0, 3_000);
    } finally {
      vi.restoreAllMocks();
      await driver.close();
      await pool.end();
      await dropSchema(schema);
    }
  });
});
