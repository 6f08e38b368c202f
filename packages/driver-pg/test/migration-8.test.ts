import { createManualClock } from '@berth/core';
import { serverUrl } from '@berth/test-servers';
import { expect, it } from 'vitest';
import { createPgDriver } from '../src/index.js';
import { adminPool, dropSchema, freshSchema, schemaAtVersion } from './pg-factory.js';
import { claimAsBefore, enqueueAsBefore } from './previous-version.js';

it('migration 8 upgrades a schema at version 7: a job claimed before it records its attempt, claimedAt its claim instant', async () => {
  const schema = freshSchema();
  const clock = createManualClock(Date.UTC(2026, 0, 1));
  const driver = createPgDriver({ connectionString: await serverUrl('pg'), schema, clock });
  try {
    await schemaAtVersion(schema, 7);
    const job = { name: 'old', queue: 'm8', maxAttempts: 2 };
    const { id } = await enqueueAsBefore(schema, job, clock.now());
    const claimed = await claimAsBefore(schema, { queue: 'm8', workerId: 'w-old' }, clock.now());
    const claimedAt = clock.now();

    await clock.advance(1_000);
    expect(await driver.migrate()).toMatchObject({
      applied: [8, 9, 10, 11, 12, 13, 14, 15, 16, 17],
    });
    const fence = { jobId: id, workerId: 'w-old', claim: claimed.claim };
    expect(await driver.nack(fence, { error: { message: 'before the upgrade' } })).toBe(true);
    await clock.advance(500);
    const [again] = await driver.claim({
      queues: ['m8'],
      workerId: 'w-new',
      visibilityTimeoutMs: 60_000,
    });
    if (again === undefined) throw new Error('expected a second claim');
    await clock.advance(250);
    expect(await driver.ack({ jobId: id, workerId: 'w-new', claim: again.claim })).toBe(true);

    expect(await driver.attempts.list(id)).toStrictEqual({
      records: [
        {
          seq: 1,
          attempt: 1,
          claim: claimed.claim,
          workerId: 'w-old',
          claimedAt,
          endedAt: claimedAt + 1_000,
          outcome: 'retried',
          error: { message: 'before the upgrade' },
        },
        {
          seq: 2,
          attempt: 2,
          claim: again.claim,
          workerId: 'w-new',
          claimedAt: claimedAt + 1_500,
          endedAt: claimedAt + 1_750,
          outcome: 'completed',
        },
      ],
      dropped: 0,
    });
    const admin = await adminPool();
    await admin.query(`DELETE FROM "${schema}".jobs WHERE id = $1`, [id]);
    const { rows } = await admin.query(`SELECT 1 FROM "${schema}".job_attempts WHERE job_id = $1`, [
      id,
    ]);
    expect(rows).toEqual([]);
  } finally {
    await driver.close();
    await dropSchema(schema);
  }
});
