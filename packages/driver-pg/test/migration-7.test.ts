import { serverUrl } from '@berth/test-servers';
import { expect, it } from 'vitest';
import { createPgDriver } from '../src/index.js';
import { adminPool, dropSchema, freshSchema, schemaAtVersion } from './pg-factory.js';

it('migration 7 upgrades a schema at version 6: a slot key’s live holders keep their slots, one row each', async () => {
  const schema = freshSchema();
  const admin = await adminPool();
  const driver = createPgDriver({ connectionString: await serverUrl('pg'), schema });
  try {
    await schemaAtVersion(schema, 6);
    const later = Date.now() + 3_600_000;
    await admin.query(
      `INSERT INTO "${schema}".slots (key, holders, expires_at) VALUES ('k', $1, $2)`,
      [JSON.stringify({ a: later, b: later, gone: Date.now() - 1_000 }), later],
    );

    expect(await driver.migrate()).toMatchObject({
      applied: [7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17],
    });
    const { rows } = await admin.query<{ holder: string }>(
      `SELECT holder FROM "${schema}".slot_holders WHERE key = 'k' ORDER BY holder`,
    );
    expect(rows.map((row) => row.holder)).toEqual(['a', 'b', 'gone']);
    // The expired holder frees its place: a third holder fits under limit 3, a fourth does not.
    expect(await driver.leases.acquireSlot('k', 3, 'c', 60_000)).toBe(true);
    expect(await driver.leases.acquireSlot('k', 3, 'd', 60_000)).toBe(false);
    expect(await driver.leases.renewSlot('k', 'a', 60_000)).toBe(true);
    expect(await driver.leases.releaseSlot('k', 'b')).toBe(true);
    expect(await driver.leases.acquireSlot('k', 3, 'd', 60_000)).toBe(true);
  } finally {
    await driver.close();
    await dropSchema(schema);
  }
});
