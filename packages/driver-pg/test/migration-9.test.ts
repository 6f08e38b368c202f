import { serverUrl } from '@berth/test-servers';
import { expect, it } from 'vitest';
import { createPgDriver } from '../src/index.js';
import { dropSchema, freshSchema, schemaAtVersion } from './pg-factory.js';

it('migration 9 upgrades a schema at version 8: check refuses until it ran, then claims skip a paused queue and take its rows once resumed', async () => {
  const schema = freshSchema();
  const driver = createPgDriver({ connectionString: await serverUrl('pg'), schema });
  try {
    await schemaAtVersion(schema, 8);
    await expect(driver.check()).rejects.toMatchObject({ code: 'DRIVER_NOT_MIGRATED' });
    expect(await driver.migrate()).toMatchObject({ applied: [9, 10, 11, 12, 13, 14, 15, 16, 17] });
    const held = await driver.enqueue({ name: 'mail', queue: 'held' });
    const open = await driver.enqueue({ name: 'mail', queue: 'open' });
    await driver.pauses.pause('held');
    const claim = { queues: ['held', 'open'], workerId: 'w', visibilityTimeoutMs: 60_000 };
    expect((await driver.claim(claim)).map((job) => job.id)).toEqual([open.id]);
    expect(await driver.claim({ ...claim, names: ['mail'] })).toEqual([]);
    await driver.pauses.resume('held');
    expect((await driver.claim(claim)).map((job) => job.id)).toEqual([held.id]);
  } finally {
    await driver.close();
    await dropSchema(schema);
  }
});
