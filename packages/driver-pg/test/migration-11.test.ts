import { randomUUID } from 'node:crypto';
import { serverUrl } from '@berth/test-servers';
import { expect, it } from 'vitest';
import { createPgDriver } from '../src/index.js';
import { dropSchema, freshSchema, schemaAtVersion } from './pg-factory.js';
import { enqueueAsBefore } from './previous-version.js';

it('migration 11 upgrades a schema at version 10: the ledger answers DRIVER_NOT_MIGRATED until it ran, then starts, commits and lists runs beside the jobs already queued', async () => {
  const schema = freshSchema();
  const driver = createPgDriver({ connectionString: await serverUrl('pg'), schema });
  try {
    await schemaAtVersion(schema, 10);
    const queued = await enqueueAsBefore(schema, { name: 'mail' }, Date.now());
    const request = { runId: randomUUID(), jobId: randomUUID(), name: 'reindex', cursor: 0 };
    await expect(driver.backfills.start(request)).rejects.toMatchObject({
      code: 'DRIVER_NOT_MIGRATED',
    });
    expect(await driver.migrate()).toMatchObject({ applied: [11, 12, 13, 14, 15, 16, 17] });
    const started = await driver.backfills.start(request);
    expect(started).toMatchObject({ started: true, run: { status: 'running', cursor: 0 } });
    const pass = { jobId: request.jobId, passes: 0, next: null, rows: 12 };
    const done = await driver.backfills.commit(request.runId, pass);
    expect(done?.run).toMatchObject({ status: 'completed', cursor: null, passes: 1, rowsDone: 12 });
    expect((await driver.backfills.list()).map((run) => run.runId)).toEqual([request.runId]);
    expect((await driver.get(queued.id))?.state).toBe('ready');
  } finally {
    await driver.close();
    await dropSchema(schema);
  }
});
