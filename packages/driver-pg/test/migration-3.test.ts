import { isBerthError } from '@berth/core';
import { serverUrl } from '@berth/test-servers';
import { expect, it } from 'vitest';
import { createPgDriver } from '../src/index.js';
import { adminPool, dropSchema, freshSchema, schemaAtVersion } from './pg-factory.js';

it('migration 3 upgrades a schema at version 2: live slots keep their holders and delayed rows stay claimable', async () => {
  const schema = freshSchema();
  const admin = await adminPool();
  const driver = createPgDriver({ connectionString: await serverUrl('pg'), schema });
  try {
    // The schema as version 2 left it, with a held slot and a due delayed job.
    await schemaAtVersion(schema, 2);
    const later = Date.now() + 3_600_000;
    await admin.query(`INSERT INTO "${schema}".slots (key, holders) VALUES ('k', $1)`, [
      JSON.stringify({ holder: later }),
    ]);
    await admin.query(
      `INSERT INTO "${schema}".jobs (id, run_id, name, queue, payload, state, priority, attempts,
         max_attempts, run_at, created_at, updated_at, claim)
       VALUES (gen_random_uuid(), gen_random_uuid(), 'old', 'default', 'null', 'delayed', 0, 0, 3,
         $1::bigint, $1::bigint, $1::bigint, 0)`,
      [Date.now() - 1_000],
    );

    // Before migration 3, a call that needs it says so rather than DRIVER_UNAVAILABLE.
    const early = await driver.events.publish('x', {}).catch((error: unknown) => error);
    expect(isBerthError(early) && early.code).toBe('DRIVER_NOT_MIGRATED');
    const slot = await driver.leases.releaseSlot('k', 'holder').catch((error: unknown) => error);
    expect(isBerthError(slot) && slot.code).toBe('DRIVER_NOT_MIGRATED');

    expect(await driver.migrate()).toMatchObject({
      applied: [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17],
    });
    const { rows } = await admin.query<{ expires_at: string }>(
      `SELECT expires_at FROM "${schema}".slot_holders WHERE key = 'k' AND holder = 'holder'`,
    );
    expect(Number(rows[0]?.expires_at)).toBe(later);
    expect(await driver.leases.acquireSlot('k', 1, 'other', 1_000)).toBe(false);
    const [job] = await driver.claim({
      queues: ['default'],
      workerId: 'w',
      visibilityTimeoutMs: 1_000,
    });
    expect(job?.name).toBe('old');
  } finally {
    await driver.close();
    await dropSchema(schema);
  }
});
