import { randomUUID } from 'node:crypto';
import type { BackfillRun } from '@berth/core';
import { serverUrl } from '@berth/test-servers';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgDriver, type PgDriver, pgBackfillTransaction } from '../src/index.js';
import { dropSchema, freshSchema } from './pg-factory.js';

describe('pgBackfillTransaction', () => {
  const schema = freshSchema();
  const table = `"${schema}".app_rows`;
  let pool: pg.Pool;
  let driver: PgDriver;

  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: await serverUrl('pg'), max: 4 });
    driver = createPgDriver({ pool, schema });
    await driver.migrate();
    await pool.query(`CREATE TABLE ${table} (id integer PRIMARY KEY)`);
  });

  afterAll(async () => {
    await driver.close();
    await pool.end();
    await dropSchema(schema);
  });

  const startRun = async (name: string): Promise<BackfillRun> => {
    const started = await driver.backfills.start({
      runId: randomUUID(),
      jobId: randomUUID(),
      name,
    });
    if (!started.started) throw new Error(`${name} did not start`);
    return started.run;
  };
  const appRows = async (): Promise<number[]> =>
    (await pool.query<{ id: number }>(`SELECT id FROM ${table} ORDER BY id`)).rows.map(
      (row) => row.id,
    );

  it('a pass written and committed through the ledger inside run is visible to everyone once run resolves, and to no one before', async () => {
    const run = await startRun('commits');
    const transaction = pgBackfillTransaction({ pool, schema });
    const answer = await transaction.run(async (tx, ledger) => {
      await tx.query(`INSERT INTO ${table} (id) VALUES (1), (2)`);
      const change = await ledger.commit(run.runId, {
        jobId: run.jobId,
        passes: 0,
        next: { after: 2 },
        rows: 2,
      });
      expect(change).toMatchObject({ changed: true, run: { passes: 1, cursor: { after: 2 } } });
      expect(await driver.backfills.get(run.runId)).toMatchObject({ passes: 0, cursor: null });
      expect(await appRows()).toEqual([]);
      return 'done';
    });
    expect(answer).toBe('done');
    expect(await appRows()).toEqual([1, 2]);
    expect(await driver.backfills.get(run.runId)).toMatchObject({
      passes: 1,
      rowsDone: 2,
      cursor: { after: 2 },
    });
  });

  it('work that throws after the ledger commit rolls back both its own write and the cursor advance, and run rethrows its error', async () => {
    const run = await startRun('rolls-back');
    const transaction = pgBackfillTransaction({ pool, schema });
    const failure = new Error('the pass failed after its commit');
    await expect(
      transaction.run(async (tx, ledger) => {
        await tx.query(`INSERT INTO ${table} (id) VALUES (10)`);
        const pass = { jobId: run.jobId, passes: 0, next: 'k', rows: 1 };
        expect((await ledger.commit(run.runId, pass))?.changed).toBe(true);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await appRows()).not.toContain(10);
    expect(await driver.backfills.get(run.runId)).toEqual(run);
  });

  it('ledger input is screened as driver.backfills screens it: a bad commit is JOB_INVALID and the app may go on', async () => {
    const run = await startRun('screened');
    const transaction = pgBackfillTransaction({ pool, schema });
    await transaction.run(async (tx, ledger) => {
      const bad = { jobId: run.jobId, passes: -1, next: 1, rows: 1 };
      await expect(ledger.commit(run.runId, bad)).rejects.toMatchObject({ code: 'JOB_INVALID' });
      await tx.query(`INSERT INTO ${table} (id) VALUES (20)`);
    });
    expect(await appRows()).toContain(20);
  });

  it('a transaction an earlier failed statement aborted commits nothing and run answers DRIVER_UNAVAILABLE', async () => {
    const run = await startRun('aborted');
    const transaction = pgBackfillTransaction({ pool, schema });
    await expect(
      transaction.run(async (tx, ledger) => {
        await ledger.commit(run.runId, { jobId: run.jobId, passes: 0, next: 2, rows: 1 });
        await tx.query(`INSERT INTO ${table} (id) VALUES (30)`);
        await tx.query('SELECT 1 / 0').catch(() => {});
      }),
    ).rejects.toMatchObject({ code: 'DRIVER_UNAVAILABLE' });
    expect(await appRows()).not.toContain(30);
    expect(await driver.backfills.get(run.runId)).toEqual(run);
  });

  it('a ledger kept past run answers DRIVER_CLOSED and writes nothing through the pooled connection', async () => {
    const run = await startRun('kept');
    const transaction = pgBackfillTransaction({ pool, schema });
    const kept = await transaction.run(async (_tx, ledger) => ledger);
    const pass = { jobId: run.jobId, passes: 0, next: 3, rows: 1 };
    await expect(kept.commit(run.runId, pass)).rejects.toMatchObject({ code: 'DRIVER_CLOSED' });
    expect(await driver.backfills.get(run.runId)).toEqual(run);
  });

  it('a schema that is not a plain identifier is refused with CONFIG_INVALID at construction', () => {
    expect(() => pgBackfillTransaction({ pool, schema: 'no such"schema' })).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID' }),
    );
  });
});
