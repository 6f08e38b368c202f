import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { isBerthError } from '@berth/core';
import { pollUntil, serverUrl } from '@berth/test-servers';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPgDriver, type PgDriver } from '../src/index.js';
import { adminPool, dropSchema, freshSchema } from './pg-factory.js';

describe('pg when the server drops its connections', () => {
  let schema: string;
  let appName: string;
  let pool: pg.Pool;
  let driver: PgDriver;

  /** Terminates every backend the driver opened (its pool and its listener). */
  const killDriverConnections = async () => {
    const admin = await adminPool();
    const { rows } = await admin.query(
      'SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity WHERE application_name = $1',
      [appName],
    );
    return rows.length;
  };

  const listenerPids = async () => {
    const admin = await adminPool();
    const { rows } = await admin.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND query LIKE 'LISTEN %'`,
      [appName],
    );
    return rows.map((row) => row.pid);
  };

  beforeEach(async () => {
    schema = freshSchema();
    appName = `berth-fault-${randomUUID().slice(0, 8)}`;
    pool = new pg.Pool({
      connectionString: await serverUrl('pg'),
      application_name: appName,
      max: 4,
    });
    pool.on('error', () => {});
    driver = createPgDriver({ pool, schema });
    await driver.migrate();
  });

  afterEach(async () => {
    await driver.close();
    await pool.end();
    await dropSchema(schema);
  });

  it('a call in flight when its connection is terminated answers DRIVER_UNAVAILABLE, and the next calls work without a restart', async () => {
    const { id } = await driver.enqueue({ name: 'held', queue: 'faults' });
    // Another session holds the row, so the driver's cancel waits on it: in flight for sure.
    const blocker = await (await adminPool()).connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query(`SELECT 1 FROM "${schema}".jobs WHERE id = $1 FOR UPDATE`, [id]);
      const inFlight = driver.cancel(id).then(
        () => undefined,
        (error: unknown) => error,
      );
      await pollUntil(async () => {
        const { rows } = await blocker.query(
          `SELECT 1 FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`,
          [appName],
        );
        return rows.length > 0;
      });
      expect(await killDriverConnections()).toBeGreaterThan(0);
      const error = await inFlight;
      expect(isBerthError(error, 'DRIVER_UNAVAILABLE')).toBe(true);
      if (!isBerthError(error)) return;
      expect(error.meta).toMatchObject({ driver: 'pg', operation: 'cancel a job' });
      expect(error.cause).toBeInstanceOf(Error);
    } finally {
      await blocker.query('ROLLBACK');
      blocker.release();
    }

    // The pool dropped the dead connections; the same driver answers again.
    expect((await driver.get(id))?.state).toBe('ready');
    const [job] = await driver.claim({
      queues: ['faults'],
      workerId: 'w',
      visibilityTimeoutMs: 5_000,
    });
    expect(job?.id).toBe(id);
    if (job === undefined) return;
    expect(await driver.ack({ jobId: id, workerId: 'w', claim: job.claim })).toBe(true);
    expect((await driver.get(id))?.state).toBe('completed');
  });

  it('the wake listener re-subscribes after its connection is terminated: a NOTIFY after the kill reaches onWork', async () => {
    const heard: string[] = [];
    const unsubscribe = await driver.subscribe?.(['faults'], (queue) => heard.push(queue));
    if (unsubscribe === undefined) throw new Error('the pg driver should offer subscribe');
    try {
      await driver.enqueue({ name: 'before', queue: 'faults' });
      await pollUntil(() => heard.length === 1);

      const [before] = await listenerPids();
      await killDriverConnections();
      await pollUntil(async () => {
        const pids = await listenerPids();
        return pids.length === 1 && pids[0] !== before;
      });
      // The reopened listener wakes its queues once, for NOTIFYs it could not hear while down.
      await pollUntil(() => heard.length === 2);

      await driver.enqueue({ name: 'after', queue: 'faults' });
      await pollUntil(() => heard.length === 3);
      await driver.enqueue({ name: 'elsewhere', queue: 'other' });
      await sleep(200);
      expect(heard).toEqual(['faults', 'faults', 'faults']);
    } finally {
      await unsubscribe();
    }
    expect(await listenerPids()).toEqual([]);
  });
});
