import { isBerthError } from '@berth/core';
import { pollUntil } from '@berth/test-servers';
import { describe, expect, it } from 'vitest';
import { createPgDriver } from '../src/index.js';
import { adminPool, openPgDriver } from './pg-factory.js';

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
    const { rows: me } = await blocker.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const inTransaction = createPgDriver({ executor: blocker, schema });
    const holder = await inTransaction.enqueue({ name: 'n', idempotencyKey: 'k' });
    const outcome = batch(driver).then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    // Found by the lock it waits on, not its text: pg_stat_activity keeps a query's first 1 kB.
    await pollUntil(
      async () => {
        const { rows } = await (await adminPool()).query(
          'SELECT 1 FROM pg_stat_activity WHERE $1::int = ANY(pg_catalog.pg_blocking_pids(pid))',
          [me[0]?.pid],
        );
        return rows.length > 0;
      },
      { everyMs: 10 },
    );
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
