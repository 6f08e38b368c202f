import type { AckItem } from '@berth/core';
import { pollUntil, serverUrl } from '@berth/test-servers';
import { afterAll, expect, it } from 'vitest';
import { createPgDriver } from '../src/index.js';
import { adminPool, dropSchema, freshSchema, openPgDriver, schemaAtVersion } from './pg-factory.js';

/**
 * The attempt records an ack writes (migration 8's trigger, one run per acked row) reach
 * `job_attempts` by its key, whatever the statistics say. After an ANALYZE that saw the table
 * empty, as autovacuum leaves it before the first ack, the planner chose a Seq Scan for each
 * row's lookups: an ackMany of 1,000 scanned the whole table 2,000 times, and a 20k burn-down
 * spent 16 s in it (800 ms per batch against 32 fresh). Counted on the server, not timed.
 */

const JOBS = 500;
const schemas: string[] = [];
afterAll(async () => {
  for (const schema of schemas) await dropSchema(schema);
});

/**
 * Rows of `job_attempts` read by sequential scans, and its index scans. Rows read, not scans
 * counted: building an index scans its table, so the migration's index build on the empty table
 * is one seq scan of 0 rows, which the tests' shared admin connection that ran it reports
 * whenever it next flushes its counters (at most once a second, or when idle): under load that
 * landed between the two reads. A lookup that scans instead of using the key reads every record.
 */
async function scansOfAttempts(schema: string): Promise<{ seqRead: number; index: number }> {
  const admin = await adminPool();
  const client = await admin.connect();
  try {
    await client.query('SELECT pg_stat_clear_snapshot()');
    const { rows } = await client.query<{ read: string; idx: string }>(
      `SELECT seq_tup_read AS read, coalesce(idx_scan, 0) AS idx FROM pg_stat_user_tables
       WHERE schemaname = $1 AND relname = 'job_attempts'`,
      [schema],
    );
    return { seqRead: Number(rows[0]?.read ?? 0), index: Number(rows[0]?.idx ?? 0) };
  } finally {
    client.release();
  }
}

it("an ackMany after an ANALYZE that saw no attempt record finds each job's earlier records by key, never scanning every record", async () => {
  const { driver, schema } = await openPgDriver();
  schemas.push(schema);
  await driver.enqueueMany(
    Array.from({ length: JOBS }, (_, seq) => ({ name: 'noop', payload: { seq }, maxAttempts: 3 })),
  );
  const admin = await adminPool();
  await admin.query(`ANALYZE "${schema}".jobs`);
  await admin.query(`ANALYZE "${schema}".job_attempts`);
  const claimAll = async () => {
    const claimed = await driver.claim({
      queues: ['default'],
      workerId: 'w',
      visibilityTimeoutMs: 60_000,
      limit: JOBS,
    });
    expect(claimed).toHaveLength(JOBS);
    return claimed.map((job) => ({ jobId: job.id, workerId: 'w', claim: job.claim }));
  };
  // A first attempt fails: each job's record 1 (a first claim needs no lookup to number it).
  const error = { message: 'first attempt fails' };
  const first = await claimAll();
  expect(await driver.nackMany(first.map((fence) => ({ fence, error })))).toEqual(
    first.map(() => true),
  );
  const before = await scansOfAttempts(schema);
  // The second attempt's ack numbers record 2 after the job's last record: a lookup per row.
  const items: AckItem[] = (await claimAll()).map((fence) => ({ fence }));
  expect(await driver.ackMany(items)).toEqual(items.map(() => true));
  // A backend reports its table counters when it exits, after the client's close answered: the
  // ack's backend reports its seq and index scans together, so once its index scans show, its
  // rows read by seq scans have too (a regression that scans instead never shows them, and the
  // wait fails).
  await driver.close();
  let after = await scansOfAttempts(schema);
  await pollUntil(
    async () => {
      after = await scansOfAttempts(schema);
      return after.index - before.index >= JOBS;
    },
    { what: "the ack's index scans of job_attempts reported", withinMs: 15_000, everyMs: 50 },
  );
  expect(after.seqRead - before.seqRead).toBe(0);
  expect(after.index - before.index).toBeGreaterThanOrEqual(JOBS);
  expect((await driverRecords(schema)).get(2)).toBe(JOBS);
});

/** How many records of each seq the schema's jobs have. */
async function driverRecords(schema: string): Promise<Map<number, number>> {
  const { rows } = await (await adminPool()).query<{ seq: number; n: number }>(
    `SELECT seq, count(*)::int AS n FROM "${schema}".job_attempts GROUP BY seq`,
  );
  return new Map(rows.map(({ seq, n }) => [seq, n]));
}

it('migration 13 upgrades a schema at version 12: both attempt-record triggers then read by key', async () => {
  const schema = freshSchema();
  schemas.push(schema);
  await schemaAtVersion(schema, 12);
  const settings = async () => {
    const { rows } = await (await adminPool()).query<{ name: string; config: string[] | null }>(
      `SELECT p.proname AS name, p.proconfig AS config FROM pg_proc p
       JOIN pg_namespace n ON n.oid = p.pronamespace
       WHERE n.nspname = $1 AND p.proname IN ('record_attempt', 'keep_attempt_error')
       ORDER BY p.proname`,
      [schema],
    );
    return rows;
  };
  expect(await settings()).toEqual([
    { name: 'keep_attempt_error', config: null },
    { name: 'record_attempt', config: null },
  ]);
  const driver = createPgDriver({ connectionString: await serverUrl('pg'), schema });
  try {
    expect(await driver.migrate()).toMatchObject({ applied: [13, 14, 15, 16, 17] });
  } finally {
    await driver.close();
  }
  expect(await settings()).toEqual([
    { name: 'keep_attempt_error', config: ['enable_seqscan=off'] },
    { name: 'record_attempt', config: ['enable_seqscan=off'] },
  ]);
});
