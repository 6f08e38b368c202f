import { randomUUID } from 'node:crypto';
import { serverUrl } from '@berth/test-servers';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPgDriver, migrate } from '../src/index.js';
import { HORIZON_WAIT_MS } from '../src/ops/lifecycle.js';
import { adminPool, freshSchema, openPgDriver } from './pg-factory.js';

/**
 * A database of this file's own: its transactions held open hold back the lifecycle reads of its
 * own database only, never those of the tests running beside it.
 */
const database = `t_lc_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
let url: string;

beforeAll(async () => {
  await (await adminPool()).query(`CREATE DATABASE "${database}"`);
  const address = new URL(await serverUrl('pg'));
  address.pathname = `/${database}`;
  url = address.toString();
});

afterAll(async () => {
  await (await adminPool()).query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
});

/** A migrated driver on a fresh schema of this file's database, and an app's client beside it. */
async function openInOwnDatabase() {
  const schema = freshSchema();
  const driver = createPgDriver({ connectionString: url, schema });
  const app = new pg.Client({ connectionString: url });
  await app.connect();
  await migrate({ executor: app, schema });
  const inApp = createPgDriver({ executor: app, schema });
  return {
    driver,
    app,
    inApp,
    dispose: async () => {
      await app.query('ROLLBACK').catch(() => {});
      await inApp.close();
      await app.end();
      await driver.close();
    },
  };
}

const kinds = (events: readonly { type: string; jobId: string }[]) =>
  events.map((event) => [event.jobId, event.type]);

it('a reader never passes an event still to commit: a change that committed after an older transaction began waits behind it, and a reader resuming from the next it answered then reads both', async () => {
  const { driver, app, inApp, dispose } = await openInOwnDatabase();
  try {
    const first = await driver.enqueue({ name: 'first', queue: 'lc-order' });
    const second = await driver.enqueue({ name: 'second', queue: 'lc-order' });
    // The app's transaction cancels `first` (its event takes the older transaction id) and stays
    // open while the driver cancels `second`, which commits at once.
    await app.query('BEGIN');
    await inApp.cancel(first.id);
    await driver.cancel(second.id);

    const started = Date.now();
    const held = await driver.lifecycle.read();
    expect(held).toStrictEqual({ events: [], caughtUp: true });
    // It waited for the transaction first, in case it was about to end.
    expect(Date.now() - started).toBeGreaterThanOrEqual(HORIZON_WAIT_MS - 50);
    expect(await driver.lifecycle.end()).toBeUndefined();

    await app.query('COMMIT');
    const after = await driver.lifecycle.read(held.next === undefined ? {} : { after: held.next });
    expect(kinds(after.events)).toEqual([
      [first.id, 'cancelled'],
      [second.id, 'cancelled'],
    ]);
    expect(after.caughtUp).toBe(true);
  } finally {
    await dispose();
  }
});

it('one job’s events read in the order of its changes, also when a transaction that began earlier makes the later change', async () => {
  const { driver, app, inApp, dispose } = await openInOwnDatabase();
  try {
    const other = await driver.enqueue({ name: 'other', queue: 'lc-order' });
    const job = await driver.enqueue({ name: 'job', queue: 'lc-job' });
    const [claimed] = await driver.claim({
      queues: ['lc-job'],
      workerId: 'w',
      visibilityTimeoutMs: 60_000,
    });
    if (claimed === undefined) throw new Error('expected a claim');
    const fence = { jobId: job.id, workerId: 'w', claim: claimed.claim };
    // The app's transaction takes its id first (a cancel of another job), then acks the job
    // after the driver's progress write, a transaction that began later, has committed.
    await app.query('BEGIN');
    await inApp.cancel(other.id);
    expect(await driver.progress(fence, 1)).toBe(true);
    expect(await inApp.ack(fence)).toBe(true);
    await app.query('COMMIT');
    const page = await driver.lifecycle.read({ jobId: job.id });
    expect(page.events.map((event) => event.type)).toEqual(['active', 'progress', 'completed']);
  } finally {
    await dispose();
  }
});

it('a transaction that changed no job holds back no event, and when it then changes one, a reader that passed it reads that change from the next it answered (also at REPEATABLE READ, whose snapshot is older)', async () => {
  const { driver, app, inApp, dispose } = await openInOwnDatabase();
  try {
    const first = await driver.enqueue({ name: 'first', queue: 'lc-order' });
    const late = await driver.enqueue({ name: 'late', queue: 'lc-order' });
    // The app's transaction writes elsewhere first: it has an id, and no lock on jobs yet.
    await app.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
    await app.query('CREATE TEMP TABLE held (a integer)');
    await driver.cancel(first.id);
    const started = Date.now();
    const page = await driver.lifecycle.read();
    expect(kinds(page.events)).toEqual([[first.id, 'cancelled']]);
    expect(Date.now() - started).toBeLessThan(HORIZON_WAIT_MS);

    await inApp.cancel(late.id);
    await app.query('COMMIT');
    const after = await driver.lifecycle.read({ after: page.next });
    expect(kinds(after.events)).toEqual([[late.id, 'cancelled']]);
  } finally {
    await dispose();
  }
});

it('a transaction held open in another database of the server holds back no event', async () => {
  const { driver, dispose } = await openPgDriver();
  const other = new pg.Client({ connectionString: url });
  await other.connect();
  try {
    await other.query('BEGIN');
    await other.query('CREATE TEMP TABLE held (a integer)');
    const { id } = await driver.enqueue({ name: 'elsewhere', queue: 'lc-order' });
    await driver.cancel(id);
    const started = Date.now();
    expect(kinds((await driver.lifecycle.read()).events)).toEqual([[id, 'cancelled']]);
    expect(Date.now() - started).toBeLessThan(HORIZON_WAIT_MS);
  } finally {
    await other.query('ROLLBACK');
    await other.end();
    await dispose();
  }
});

it('a rolled-back change leaves no event, and the events after it read on', async () => {
  const { driver, app, inApp, dispose } = await openInOwnDatabase();
  try {
    const kept = await driver.enqueue({ name: 'kept', queue: 'lc-order' });
    const undone = await driver.enqueue({ name: 'undone', queue: 'lc-order' });
    await app.query('BEGIN');
    await inApp.cancel(undone.id);
    await driver.cancel(kept.id);
    await app.query('ROLLBACK');
    const page = await driver.lifecycle.read();
    expect(kinds(page.events)).toEqual([[kept.id, 'cancelled']]);
    expect((await driver.get(undone.id))?.state).toBe('ready');
  } finally {
    await dispose();
  }
});
