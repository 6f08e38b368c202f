import { serverUrl } from '@berth/test-servers';
import { expect, it } from 'vitest';
import { createPgDriver } from '../src/index.js';
import { statements } from '../src/sql/index.js';
import { adminPool, dropSchema, freshSchema, openPgDriver, schemaAtVersion } from './pg-factory.js';
import { flatten, type PlanNode } from './plan-nodes.js';

const insertRaw = (schema: string, name: string, count: number, at: number) =>
  adminPool().then((admin) =>
    admin.query(
      `INSERT INTO "${schema}".jobs (id, run_id, name, queue, payload, state, priority, attempts,
         max_attempts, run_at, created_at, updated_at, claim, finished_at)
       SELECT gen_random_uuid(), gen_random_uuid(), $1, 'default', 'null', 'completed', 0, 1, 3,
         $2::bigint, $2::bigint + k, $2::bigint, 1, $2::bigint
       FROM generate_series(1, $3::int) k`,
      [name, at, count],
    ),
  );

it('migration 5 upgrades a schema at version 4: the jobs it held list in order, and jobs any writer inserts or purges later list or go too', async () => {
  const schema = freshSchema();
  const admin = await adminPool();
  const driver = createPgDriver({ connectionString: await serverUrl('pg'), schema });
  try {
    await schemaAtVersion(schema, 4);
    const at = Date.now() - 60_000;
    await insertRaw(schema, 'before', 3, at);

    expect(await driver.migrate()).toMatchObject({
      applied: [5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17],
    });
    // Written by a statement that is not the driver's (an older version of it, say).
    await insertRaw(schema, 'after', 2, at + 10);
    const { jobs } = await driver.list({ limit: 10 });
    expect(jobs.map((job) => [job.name, job.createdAt - at])).toEqual([
      ['after', 12],
      ['after', 11],
      ['before', 3],
      ['before', 2],
      ['before', 1],
    ]);

    expect(await driver.purge({ states: ['completed'], olderThan: Date.now() })).toBe(5);
    const { rows } = await admin.query<{ n: string }>(
      `SELECT count(*) AS n FROM "${schema}".jobs_listed`,
    );
    expect(Number(rows[0]?.n)).toBe(0);
  } finally {
    await driver.close();
    await dropSchema(schema);
  }
});

it('a list page walks jobs_listed in list order and reads each row of jobs by id, with the table never ANALYZEd and after ANALYZE of 30k rows', async () => {
  const { schema, dispose } = await openPgDriver();
  try {
    const admin = await adminPool();
    await admin.query(`ALTER TABLE "${schema}".jobs SET (autovacuum_enabled = false)`);
    await admin.query(`ALTER TABLE "${schema}".jobs_listed SET (autovacuum_enabled = false)`);
    await insertRaw(schema, 'x', 30_000, Date.now());
    const sql = statements(`"${schema}"`);
    for (const analyze of [false, true]) {
      if (analyze) await admin.query(`ANALYZE "${schema}".jobs, "${schema}".jobs_listed`);
      for (const [text, values] of [
        [sql.list.forward, [Date.now(), null, null, null, null, 51, null, null]],
        [sql.list.forward, [Date.now(), 'completed', 'default', 'x', null, 51, Date.now(), 1]],
        [sql.list.backward, [Date.now(), null, null, null, null, 51, 0, 0]],
      ] as const) {
        const { rows } = await admin.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
          `EXPLAIN (FORMAT JSON) ${text}`,
          [...values],
        );
        const nodes = flatten(rows[0]?.['QUERY PLAN'][0]?.Plan ?? { 'Node Type': 'none' });
        const where = `analyzed: ${analyze}`;
        expect(
          nodes.map((node) => node['Node Type']),
          where,
        ).not.toContain('Seq Scan');
        expect(
          nodes.map((node) => node['Node Type']),
          where,
        ).not.toContain('Sort');
        expect(
          nodes
            .filter((node) => node['Index Name'] !== undefined)
            .map((node) => node['Index Name']),
          where,
        ).toEqual(['jobs_listed_pkey', 'jobs_id_pkey']);
      }
    }
  } finally {
    await dispose();
  }
}, 60_000);
