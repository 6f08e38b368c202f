import { serverUrl } from '@berth/test-servers';
import pg from 'pg';
import { expect, it } from 'vitest';
import { createPgDriver } from '../src/index.js';
import { statements } from '../src/sql/index.js';
import { settleChannel } from '../src/sql/schema.js';
import { dropSchema, freshSchema, schemaAtVersion } from './pg-factory.js';
import { enqueueAsBefore } from './previous-version.js';

it('migration 17 upgrades a schema at version 16: a previous version’s statements, prepared before it (claim_jobs_v2, progress, ack), still run after it and write their lifecycle events', async () => {
  const schema = freshSchema();
  const driver = createPgDriver({ connectionString: await serverUrl('pg'), schema });
  // The statements of migration 16's version, which this change leaves as they were.
  const sql = statements(`"${schema}"`);
  const previous = new pg.Client({ connectionString: await serverUrl('pg') });
  await previous.connect();
  const now = Date.now();
  const claimBefore = () =>
    previous.query<{ id: string; claim: string }>({
      name: 'claim_before_17',
      text: sql.claim,
      values: [['m17'], now, 10, 'w-old', 60_000, [], 'null', null],
    });
  try {
    await schemaAtVersion(schema, 16);
    expect((await claimBefore()).rows).toEqual([]);
    const job = await enqueueAsBefore(schema, { name: 'old', queue: 'm17' }, now);

    expect(await driver.migrate()).toMatchObject({ applied: [17] });
    const [claimed] = (await claimBefore()).rows;
    expect(claimed?.id).toBe(job.id);
    const fence = [job.id, 'w-old', claimed?.claim];
    await previous.query({
      name: 'progress_before_17',
      text: sql.progress.progress,
      values: [...fence, now + 1, '{"done":1}'],
    });
    const acked = await previous.query({
      name: 'ack_before_17',
      text: sql.settle.ack,
      values: [...fence, now + 2, false, null, settleChannel(schema)],
    });
    expect(acked.rows).toHaveLength(1);

    const page = await driver.lifecycle.read();
    expect(page.events.map((event) => [event.jobId, event.type, event.attempt, event.at])).toEqual([
      [job.id, 'active', 1, now],
      [job.id, 'progress', 1, now + 1],
      [job.id, 'completed', 1, now + 2],
    ]);
  } finally {
    await previous.end();
    await driver.close();
    await dropSchema(schema);
  }
});
