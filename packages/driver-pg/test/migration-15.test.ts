import { createManualClock } from '@berth/core';
import { serverUrl } from '@berth/test-servers';
import { expect, it } from 'vitest';
import { createPgDriver } from '../src/index.js';
import { dropSchema, freshSchema, schemaAtVersion } from './pg-factory.js';
import { enqueueAsBefore } from './previous-version.js';

it('migration 15 upgrades a schema at version 14: stored schedules answer DRIVER_NOT_MIGRATED until it ran, then store, list and come due beside the jobs already queued', async () => {
  const schema = freshSchema();
  const t0 = Date.UTC(2026, 0, 1);
  const clock = createManualClock(t0);
  const driver = createPgDriver({ connectionString: await serverUrl('pg'), schema, clock });
  const write = {
    name: 'nightly',
    cron: '0 3 * * *',
    job: 'report',
    payload: null,
    paused: false,
    nextAt: t0,
  };
  try {
    await schemaAtVersion(schema, 14);
    const queued = await enqueueAsBefore(schema, { name: 'mail' }, t0);
    // One call at a time: a refusal nobody awaits yet would be an unhandled rejection.
    for (const call of [
      () => driver.schedules.put(write, 0),
      () => driver.schedules.get('nightly'),
      () => driver.schedules.list(),
      () => driver.schedules.due(t0, 10),
      () => driver.schedules.remove('nightly', 1),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: 'DRIVER_NOT_MIGRATED' });
    }
    expect(await driver.migrate()).toMatchObject({ applied: [15, 16, 17] });
    const stored = { ...write, revision: 1, createdAt: t0, updatedAt: t0 };
    expect(await driver.schedules.put(write, 0)).toStrictEqual(stored);
    expect((await driver.schedules.list()).schedules).toStrictEqual([stored]);
    expect(await driver.schedules.due(t0, 10)).toStrictEqual([stored]);
    expect(await driver.schedules.remove('nightly', 1)).toBe(true);
    expect((await driver.get(queued.id))?.state).toBe('ready');
  } finally {
    await driver.close();
    await dropSchema(schema);
  }
});
