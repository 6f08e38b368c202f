import { serverUrl } from '@berth/test-servers';
import pg from 'pg';
import { expect, it } from 'vitest';
import { createPgDriver } from '../src/index.js';
import { dropSchema, freshSchema, schemaAtVersion } from './pg-factory.js';
import { enqueueAsBefore } from './previous-version.js';

it('migration 16 upgrades a schema at version 15: jobs queued before it have no parentId, and a claim the previous version holds prepared (claim_jobs) still claims after it', async () => {
  const schema = freshSchema();
  const driver = createPgDriver({ connectionString: await serverUrl('pg'), schema });
  // A previous version's connection: its claim prepared before the upgrade, as its driver sends it.
  const previous = new pg.Client({ connectionString: await serverUrl('pg') });
  await previous.connect();
  const claimBefore = () =>
    previous.query({
      name: 'claim_before_16',
      text: `SELECT * FROM "${schema}".claim_jobs($1::text[], $2::bigint, $3::integer, $4::text,
        $5::bigint, $6::text[], $7::json, $8::text[])`,
      values: [['m16'], Date.now(), 10, 'w-old', 60_000, [], 'null', null],
    });
  try {
    await schemaAtVersion(schema, 15);
    const parent = await enqueueAsBefore(schema, { name: 'flow', queue: 'parents' }, Date.now());
    expect((await claimBefore()).rows).toEqual([]);

    expect(await driver.migrate()).toMatchObject({ applied: [16, 17] });
    expect(await driver.get(parent.id)).not.toHaveProperty('parentId');
    const child = await driver.enqueue({ name: 'step', queue: 'm16', parentId: parent.id });
    expect((await driver.get(child.id))?.parentId).toBe(parent.id);
    // claim_jobs keeps its answer: replacing it would fail this statement ("cached plan must
    // not change result type") on every connection that prepared it.
    const { rows } = await claimBefore();
    expect(rows.map((row: { id: string }) => row.id)).toEqual([child.id]);
    expect(rows[0]).not.toHaveProperty('parent_id');
  } finally {
    await previous.end();
    await driver.close();
    await dropSchema(schema);
  }
});
