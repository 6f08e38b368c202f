import { serverUrl } from '@berth/test-servers';
import { expect, it } from 'vitest';
import { createPgDriver } from '../src/index.js';
import { adminPool, dropSchema, freshSchema, schemaAtVersion } from './pg-factory.js';

/** `count` rows of `state` and `priority` in one statement, due one ms apart from `at`. */
async function insertWaiting(
  schema: string,
  state: string,
  priority: number,
  count: number,
  at: number,
) {
  await (await adminPool()).query(
    `INSERT INTO "${schema}".jobs (id, run_id, name, queue, payload, state, priority, attempts,
       max_attempts, run_at, created_at, updated_at, claim)
     SELECT gen_random_uuid(), gen_random_uuid(), 'x', 'default', 'null', $1, $2, 1, 3,
       $3::bigint + k, $3::bigint, $3::bigint, 1
     FROM generate_series(1, $4::int) k`,
    [state, priority, at, count],
  );
}

it('migration 6 upgrades a schema at version 5: waiting rows it held are claimed in claim order behind more due rows than a batch, and the indexes by due instant are gone', async () => {
  const schema = freshSchema();
  const driver = createPgDriver({ connectionString: await serverUrl('pg'), schema });
  try {
    await schemaAtVersion(schema, 5);
    const past = Date.now() - 600_000;
    await insertWaiting(schema, 'delayed', 0, 300, past);
    await insertWaiting(schema, 'suspended', 0, 250, past);
    await insertWaiting(schema, 'delayed', 5, 1, past + 1_000);
    await insertWaiting(schema, 'suspended', 4, 1, past + 1_000);

    expect(await driver.migrate()).toMatchObject({
      applied: [6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17],
    });
    const { rows } = await (await adminPool()).query<{ indexname: string }>(
      `SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND indexname LIKE 'jobs_due%'
       ORDER BY indexname`,
      [schema],
    );
    expect(rows.map((row) => row.indexname)).toEqual([
      'jobs_due_order_idx',
      'jobs_due_order_name_idx',
    ]);
    const claimed = await driver.claim({
      queues: ['default'],
      limit: 3,
      workerId: 'w',
      visibilityTimeoutMs: 60_000,
    });
    expect(claimed.map((job) => [job.priority, job.resumed])).toEqual([
      [5, false],
      [4, true],
      [0, false],
    ]);
    expect(claimed[2]?.runAt).toBe(past + 1);
  } finally {
    await driver.close();
    await dropSchema(schema);
  }
});
