import { isBerthError } from '@berth/core';
import { expect, it } from 'vitest';
import { adminPool, openPgDriver } from './pg-factory.js';
import { blockedOn, openSession, type Session, settled } from './sessions.js';

const codeOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
    return 'no error';
  } catch (error) {
    return isBerthError(error) ? error.code : String(error);
  }
};

/** The app's transaction is still usable: a later statement in it lands, and it commits. */
async function commitsAfterwards(app: Session, check: () => Promise<unknown>) {
  const after = await app.driver.enqueue({ name: 'after-the-refusal' });
  await app.client.query('COMMIT');
  expect(await check()).toBeDefined();
  return after;
}

it('enqueueMany inside an app transaction that meets a key another writer commits answers deduped and leaves the transaction usable', async () => {
  const { driver, schema, dispose } = await openPgDriver();
  const app = await openSession(schema);
  const writer = await openSession(schema);
  try {
    await writer.client.query('BEGIN');
    const held = await writer.driver.enqueue({ name: 'k', idempotencyKey: 'K' });
    await app.client.query('BEGIN');
    const batch = app.driver.enqueueMany([{ name: 'k', idempotencyKey: 'K' }, { name: 'other' }]);
    // The batch's insert waits on the writer's uncommitted key.
    expect(await blockedOn('WITH RECURSIVE items', settled(batch), [writer.pid])).toBe(app.pid);
    await writer.client.query('COMMIT');
    const [first, second] = await batch;
    expect(first).toEqual({ id: held.id, runId: held.runId, deduped: true });
    expect(second?.deduped).toBe(false);
    const after = await commitsAfterwards(app, () => driver.get(second?.id ?? ''));
    expect((await driver.get(after.id))?.name).toBe('after-the-refusal');
  } finally {
    await app.close();
    await writer.close();
    await dispose();
  }
});

it("enqueueMany with onConflict 'error' inside an app transaction under a key race answers JOB_DUPLICATE, lands nothing, and leaves the transaction usable", async () => {
  const { driver, schema, dispose } = await openPgDriver();
  const app = await openSession(schema);
  const writer = await openSession(schema);
  try {
    await writer.client.query('BEGIN');
    await writer.driver.enqueue({ name: 'k', idempotencyKey: 'K' });
    await app.client.query('BEGIN');
    const batch = app.driver.enqueueMany([
      { name: 'other' },
      { name: 'k', idempotencyKey: 'K', onConflict: 'error' },
    ]);
    await blockedOn('WITH RECURSIVE items', settled(batch), [writer.pid]);
    await writer.client.query('COMMIT');
    expect(await codeOf(batch)).toBe('JOB_DUPLICATE');
    await commitsAfterwards(app, () => driver.stats());
    expect((await driver.list({ name: 'other', limit: 10 })).jobs).toHaveLength(0);
  } finally {
    await app.close();
    await writer.close();
    await dispose();
  }
});

it('requeue inside an app transaction racing a new live holder of its key answers JOB_DUPLICATE and leaves the transaction usable', async () => {
  const { driver, schema, dispose } = await openPgDriver();
  const app = await openSession(schema);
  const writer = await openSession(schema);
  try {
    const { id } = await driver.enqueue({ name: 'k', idempotencyKey: 'K' });
    expect((await driver.cancel(id)).state).toBe('cancelled');
    await writer.client.query('BEGIN');
    const holder = await writer.driver.enqueue({ name: 'k', idempotencyKey: 'K' });
    await app.client.query('BEGIN');
    const requeue = app.driver.requeue(id);
    // The check saw no live holder (uncommitted); the move waits on the writer's key.
    await blockedOn('WITH moved', settled(requeue), [writer.pid]);
    await writer.client.query('COMMIT');
    let refusal: unknown;
    await requeue.catch((error: unknown) => {
      refusal = error;
    });
    expect(isBerthError(refusal) && refusal.code).toBe('JOB_DUPLICATE');
    expect(isBerthError(refusal) && (refusal.meta as { existingId?: string }).existingId).toBe(
      holder.id,
    );
    await commitsAfterwards(app, () => driver.stats());
    expect((await driver.get(id))?.state).toBe('cancelled');
  } finally {
    await app.close();
    await writer.close();
    await dispose();
  }
});

it('enqueueMany through a pool meeting keys two other writers commit while it waits answers both deduped', async () => {
  const { driver, schema, dispose } = await openPgDriver();
  const writers = [await openSession(schema), await openSession(schema)];
  try {
    const held = [];
    for (const [n, writer] of writers.entries()) {
      await writer.client.query('BEGIN');
      held.push(await writer.driver.enqueue({ name: 'k', idempotencyKey: `K${n}` }));
    }
    const batch = driver.enqueueMany([
      { name: 'k', idempotencyKey: 'K0' },
      { name: 'k', idempotencyKey: 'K1' },
      { name: 'fresh' },
    ]);
    const done = settled(batch);
    // Each walk of the batch waits on one writer; that writer commits, and the next walk
    // meets the other.
    const waiting = new Map(writers.map((writer) => [writer.pid, writer]));
    while (waiting.size > 0) {
      await blockedOn('WITH RECURSIVE items', done, [...waiting.keys()]);
      const admin = await adminPool();
      const { rows } = await admin.query<{ blockers: number[] }>(
        `SELECT pg_blocking_pids(pid) AS blockers FROM pg_stat_activity
         WHERE wait_event_type = 'Lock' AND position('WITH RECURSIVE items' IN query) > 0`,
      );
      const blocker = rows[0]?.blockers.find((pid) => waiting.has(pid));
      const writer = blocker === undefined ? undefined : waiting.get(blocker);
      if (writer === undefined) continue;
      await writer.client.query('COMMIT');
      waiting.delete(writer.pid);
    }
    const answers = await batch;
    expect(answers.slice(0, 2)).toEqual(
      held.map((job) => ({ id: job.id, runId: job.runId, deduped: true })),
    );
    expect(answers[2]?.deduped).toBe(false);
  } finally {
    for (const writer of writers) await writer.close();
    await dispose();
  }
});

it('enqueueMany and requeue through a client outside any transaction answer as through a pool', async () => {
  const { driver, schema, dispose } = await openPgDriver();
  const app = await openSession(schema);
  try {
    const [made, again] = await app.driver.enqueueMany([
      { name: 'k', idempotencyKey: 'K' },
      { name: 'k', idempotencyKey: 'K' },
    ]);
    expect(again).toEqual({ id: made?.id, runId: made?.runId, deduped: true });
    await app.driver.cancel(made?.id ?? '');
    expect((await app.driver.requeue(made?.id ?? '')).state).toBe('ready');
    expect((await driver.get(made?.id ?? ''))?.state).toBe('ready');
  } finally {
    await app.close();
    await dispose();
  }
});

it('a pool batch chosen as a deadlock victim against an app transaction walks again and answers deduped', async () => {
  const { driver, schema, dispose } = await openPgDriver();
  const app = await openSession(schema);
  try {
    await app.client.query('BEGIN');
    const [k1] = await app.driver.enqueueMany([{ name: 'k', idempotencyKey: 'K1' }]);
    const batch = driver.enqueueMany([
      { name: 'k', idempotencyKey: 'K2' },
      { name: 'k', idempotencyKey: 'K1' },
    ]);
    // The batch holds K2 and waits on the app's K1; the app then waits on K2: a cycle, and the
    // batch, waiting longest, is the one PostgreSQL ends.
    await blockedOn('WITH RECURSIVE items', settled(batch), [app.pid]);
    const [k2] = await app.driver.enqueueMany([{ name: 'k', idempotencyKey: 'K2' }]);
    await app.client.query('COMMIT');
    expect(await batch).toEqual([
      { id: k2?.id, runId: k2?.runId, deduped: true },
      { id: k1?.id, runId: k1?.runId, deduped: true },
    ]);
  } finally {
    await app.close();
    await dispose();
  }
});
