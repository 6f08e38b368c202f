import { createManualClock, type Driver } from '@berth/core';
import { attemptError } from '@berth/core/driver';
import { serverUrl } from '@berth/test-servers';
import { expect, it } from 'vitest';
import { createPgDriver } from '../src/index.js';
import { dropSchema, freshSchema, schemaAtVersion } from './pg-factory.js';
import { claimAsBefore, enqueueAsBefore } from './previous-version.js';

const claimOne = async (driver: Driver, queue: string) => {
  const [job] = await driver.claim({ queues: [queue], workerId: 'w', visibilityTimeoutMs: 60_000 });
  if (job === undefined) throw new Error(`expected a claim from ${queue}`);
  return { jobId: job.id, workerId: 'w', claim: job.claim };
};

/** The outcome and error of each of the job's attempt records, in order. */
const endings = async (driver: Driver, id: string) =>
  (await driver.attempts.list(id))?.records.map(({ outcome, error }) => ({ outcome, error }));

it("migration 12 upgrades a schema at version 11: a nack with cancel keeps its error in the attempt's cancelled record (an operator's cancel still keeps none), whatever the row's earlier lastError", async () => {
  const schema = freshSchema();
  const clock = createManualClock(Date.UTC(2026, 0, 1));
  const driver = createPgDriver({ connectionString: await serverUrl('pg'), schema, clock });
  const boom = { code: 'E_BOOM', message: 'boom' };
  const skipped = { code: 'JOB_SKIPPED', message: 'its concurrency key was busy' };
  try {
    await schemaAtVersion(schema, 11);
    await expect(driver.check()).rejects.toMatchObject({ code: 'DRIVER_NOT_MIGRATED' });
    // Before it: the row settles cancelled, but its record has no error.
    const job = { name: 'm12', queue: 'before', maxAttempts: 3 };
    const before = await enqueueAsBefore(schema, job, clock.now());
    const claimBefore = () =>
      claimAsBefore(schema, { queue: 'before', workerId: 'w' }, clock.now());
    expect(await driver.nack(await claimBefore(), { error: boom })).toBe(true);
    const cancel = { error: boom, cancel: true };
    expect(await driver.nack(await claimBefore(), cancel)).toBe(true);
    expect(await endings(driver, before.id)).toEqual([
      { outcome: 'retried', error: boom },
      { outcome: 'cancelled', error: undefined },
    ]);

    expect(await driver.migrate()).toMatchObject({ applied: [12, 13, 14, 15, 16, 17] });
    await expect(driver.check()).resolves.toBeUndefined();
    // The same error as the attempt before: only the statement tells a nack from a cancel.
    const after = await driver.enqueue({ name: 'm12', queue: 'after', maxAttempts: 3 });
    expect(await driver.nack(await claimOne(driver, 'after'), { error: boom })).toBe(true);
    expect(await driver.nack(await claimOne(driver, 'after'), cancel)).toBe(true);
    expect(await endings(driver, after.id)).toEqual([
      { outcome: 'retried', error: boom },
      { outcome: 'cancelled', error: boom },
    ]);

    const operator = await driver.enqueue({ name: 'm12', queue: 'operator', maxAttempts: 3 });
    expect(await driver.nack(await claimOne(driver, 'operator'), { error: boom })).toBe(true);
    await claimOne(driver, 'operator');
    expect((await driver.cancel(operator.id)).lastError).toEqual(boom);
    expect(await endings(driver, operator.id)).toEqual([
      { outcome: 'retried', error: boom },
      { outcome: 'cancelled', error: undefined },
    ]);

    // nackMany, and an error cut to the record's bounds as every record's is.
    const long = { ...skipped, message: 'é'.repeat(2_000), stack: 'ü'.repeat(5_000) };
    const batch = await driver.enqueue({ name: 'm12', queue: 'batch', maxAttempts: 3 });
    const retried = await driver.enqueue({ name: 'm12', queue: 'batch', maxAttempts: 3 });
    const [a, b] = await driver.claim({
      queues: ['batch'],
      workerId: 'w',
      visibilityTimeoutMs: 60_000,
      limit: 2,
    });
    if (a === undefined || b === undefined) throw new Error('expected two claims');
    const fenceOf = (job: typeof a) => ({ jobId: job.id, workerId: 'w', claim: job.claim });
    const [cancelled, other] = a.id === batch.id ? [a, b] : [b, a];
    expect(
      await driver.nackMany([
        { fence: fenceOf(cancelled), error: long, cancel: true, retryAt: clock.now() + 1_000 },
        { fence: fenceOf(other), error: boom },
      ]),
    ).toEqual([true, true]);
    // lastError as the screen bounds it; its record cut further, as core's attemptError cuts.
    const stored = await driver.get(batch.id);
    expect(stored?.state).toBe('cancelled');
    if (stored?.lastError === undefined) throw new Error('expected a lastError');
    expect(stored.lastError.message).toBe(long.message);
    const cut = attemptError(stored.lastError);
    expect(cut.message.length).toBeLessThan(long.message.length);
    expect(await endings(driver, batch.id)).toEqual([{ outcome: 'cancelled', error: cut }]);
    expect(await endings(driver, retried.id)).toEqual([{ outcome: 'retried', error: boom }]);
  } finally {
    await driver.close();
    await dropSchema(schema);
  }
});
