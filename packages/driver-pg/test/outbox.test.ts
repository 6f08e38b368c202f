import { createOutboxRelay, type Driver, defineJob, isBerthError } from '@berth/core';
import { createMemoryDriver } from '@berth/driver-memory';
import { serverUrl } from '@berth/test-servers';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPgOutbox, type PgOutbox } from '../src/index.js';
import { dropSchema, freshSchema } from './pg-factory.js';

const invoice = defineJob<{ invoice: string }>({ name: 'invoice.send', run: async () => {} });

let pool: pg.Pool;
let schema: string;
let outbox: PgOutbox;
let queue: Driver;

beforeEach(async () => {
  pool = new pg.Pool({ connectionString: await serverUrl('pg'), max: 6 });
  schema = freshSchema();
  outbox = createPgOutbox({ pool, schema });
  await outbox.migrate();
  queue = createMemoryDriver();
});

afterEach(async () => {
  await outbox.close();
  await pool.end();
  await dropSchema(schema);
});

/** Runs `work` in a transaction on its own connection; commits unless `rollback`. */
async function inTransaction<T>(
  work: (tx: pg.PoolClient) => Promise<T>,
  rollback = false,
): Promise<T> {
  const tx = await pool.connect();
  try {
    await tx.query('BEGIN');
    const answer = await work(tx);
    await tx.query(rollback ? 'ROLLBACK' : 'COMMIT');
    return answer;
  } finally {
    tx.release();
  }
}

const staged = async () =>
  (await pool.query(`SELECT id, dead_at, refusal FROM "${schema}".outbox ORDER BY seq`)).rows;

describe('the transactional outbox on PostgreSQL', () => {
  it('a job staged in a committed transaction becomes one job with the id staging answered; a rolled-back one never does', async () => {
    const kept = await inTransaction((tx) => outbox.stage(tx, invoice, { invoice: 'in_1' }));
    await inTransaction((tx) => outbox.stage(tx, invoice, { invoice: 'in_2' }), true);
    const relay = createOutboxRelay({ store: outbox.store, driver: queue });
    expect(await relay.drain()).toBe(1);
    const job = await queue.get(kept.id);
    expect(job).toMatchObject({
      name: 'invoice.send',
      payload: { invoice: 'in_1' },
      state: 'ready',
    });
    expect((await queue.list({})).jobs).toHaveLength(1);
    expect(await staged()).toEqual([]);
  });

  it('processes migrating one fresh outbox at once all succeed; giving a pool and a connection string is CONFIG_INVALID', async () => {
    const fresh = freshSchema();
    const outboxes = Array.from({ length: 4 }, () => createPgOutbox({ pool, schema: fresh }));
    try {
      await Promise.all(outboxes.map((each) => each.migrate()));
      expect(await outboxes[0]?.stats()).toEqual({ staged: 0, dead: 0 });
    } finally {
      await dropSchema(fresh);
    }
    let thrown: unknown;
    try {
      createPgOutbox({ pool, connectionString: await serverUrl('pg') });
    } catch (error) {
      thrown = error;
    }
    expect(isBerthError(thrown, 'CONFIG_INVALID')).toBe(true);
  });

  it('staging outside a transaction is OUTBOX_NO_TX and stages nothing: on a client, a pool, or any executor', async () => {
    const client = await pool.connect();
    // An executor that is neither: only query(text, values), as an ORM's adapter.
    const bare = { query: (text: string, values?: unknown[]) => pool.query(text, values) };
    try {
      for (const executor of [client, pool, bare]) {
        const error = await outbox
          .stage(executor, invoice, { invoice: 'in_1' })
          .catch((e: unknown) => e);
        expect(isBerthError(error, 'OUTBOX_NO_TX'), String(error)).toBe(true);
      }
      // The same bare executor inside a transaction stages.
      await client.query('BEGIN');
      const inside = { query: (text: string, values?: unknown[]) => client.query(text, values) };
      await outbox.stage(inside, invoice, { invoice: 'in_2' });
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    expect(await staged()).toHaveLength(1);
  });

  it('bad input fails the caller inside its transaction, never the relay', async () => {
    const error = await inTransaction((tx) =>
      outbox.stage(tx, invoice, { invoice: 'in_1' }, { priority: Number.NaN }),
    ).catch((e: unknown) => e);
    expect(isBerthError(error, 'JOB_INVALID'), String(error)).toBe(true);
  });

  it('rows are relayed in staging order, jobs and events alike', async () => {
    await inTransaction(async (tx) => {
      await outbox.stage(tx, invoice, { invoice: 'a' });
      await outbox.publish(tx, 'invoice.paid', { invoice: 'a' });
      await outbox.stage(tx, invoice, { invoice: 'b' });
    });
    const relay = createOutboxRelay({ store: outbox.store, driver: queue, batchSize: 2 });
    expect(await relay.drain()).toBe(3);
    const { jobs } = await queue.list({ name: 'invoice.send' });
    expect(jobs.map((job) => (job.payload as { invoice: string }).invoice).sort()).toEqual([
      'a',
      'b',
    ]);
    const event = await queue.events.find('invoice.paid', { after: 0 });
    expect(event?.payload).toEqual({ invoice: 'a' });
  });

  it('a relay that died after enqueueing and before finishing its batch makes no second job: the retry answers deduped', async () => {
    const { id } = await inTransaction((tx) => outbox.stage(tx, invoice, { invoice: 'in_1' }));
    // The first relay enqueues, then "dies": its batch is given back untouched.
    const first = await outbox.store.take(10);
    if (first === undefined) throw new Error('nothing staged');
    const [row] = first.rows;
    if (row?.kind !== 'job') throw new Error('expected the job');
    await queue.enqueue({ ...row.request, id: row.id });
    await first.abandon();
    const relay = createOutboxRelay({ store: outbox.store, driver: queue });
    expect(await relay.drain()).toBe(1);
    expect((await queue.list({})).jobs.map((job) => job.id)).toEqual([id]);
    expect(await staged()).toEqual([]);
  });

  it('a row the queue refuses stays dead with the refusal, and the rows behind it are relayed', async () => {
    const small = createMemoryDriver({ maxPayloadBytes: 1_024 });
    await inTransaction(async (tx) => {
      await outbox.stage(tx, invoice, { invoice: 'x'.repeat(2_000) });
      await outbox.stage(tx, invoice, { invoice: 'fits' });
    });
    const relay = createOutboxRelay({ store: outbox.store, driver: small });
    expect(await relay.drain()).toBe(2);
    const { jobs } = await small.list({});
    expect(jobs.map((job) => job.payload)).toEqual([{ invoice: 'fits' }]);
    const rows = await staged();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.dead_at).not.toBeNull();
    expect(rows[0]?.refusal).toMatchObject({ code: 'JOB_INVALID' });
    // A dead row is not taken again.
    expect(await relay.drain()).toBe(0);
    // An operator sees it, with the refusal, and stages it again once the queue takes it.
    expect(await outbox.stats()).toEqual({ staged: 0, dead: 1 });
    const [dead] = await outbox.dead();
    expect(dead?.refusal).toMatchObject({ code: 'JOB_INVALID' });
    expect(dead?.row.kind).toBe('job');
    const id = dead?.row.id ?? '';
    expect(await outbox.retry([id, '00000000-0000-4000-8000-000000000000'])).toEqual([id]);
    expect((await outbox.stats()).staged).toBe(1);
    expect(await createOutboxRelay({ store: outbox.store, driver: queue }).drain()).toBe(1);
    expect(await queue.get(id)).toMatchObject({ state: 'ready' });
    expect(await outbox.stats()).toEqual({ staged: 0, dead: 0 });
  });

  it('an operator discards a dead row for good; a waiting row is neither retried nor discarded', async () => {
    const small = createMemoryDriver({ maxPayloadBytes: 1_024 });
    const refused = await inTransaction((tx) =>
      outbox.stage(tx, invoice, { invoice: 'x'.repeat(2_000) }),
    );
    await createOutboxRelay({ store: outbox.store, driver: small }).drain();
    const waiting = await inTransaction((tx) => outbox.stage(tx, invoice, { invoice: 'in_1' }));
    const stats = await outbox.stats();
    expect(stats).toMatchObject({ staged: 1, dead: 1 });
    expect(stats.oldestStagedAt).toBeGreaterThan(Date.now() - 60_000);
    expect(await outbox.discard([refused.id, waiting.id])).toEqual([refused.id]);
    expect(await outbox.retry([waiting.id])).toEqual([]);
    expect(await outbox.stats()).toMatchObject({ staged: 1, dead: 0 });
  });

  it('a queue that fails gives the batch back: nothing is lost, and the next relay moves it', async () => {
    await inTransaction((tx) => outbox.stage(tx, invoice, { invoice: 'in_1' }));
    const down = { ...queue, enqueueMany: async () => Promise.reject(new Error('ECONNREFUSED')) };
    await expect(createOutboxRelay({ store: outbox.store, driver: down }).drain()).rejects.toThrow(
      'ECONNREFUSED',
    );
    expect(await staged()).toHaveLength(1);
    expect(await createOutboxRelay({ store: outbox.store, driver: queue }).drain()).toBe(1);
    expect((await queue.list({})).jobs).toHaveLength(1);
  });

  it('relays running at once each take rows no other holds: every staged job becomes exactly one job', async () => {
    for (let batch = 0; batch < 10; batch += 1) {
      await inTransaction(async (tx) => {
        for (let n = 0; n < 20; n += 1) {
          await outbox.stage(tx, invoice, { invoice: `${batch}-${n}` });
        }
      });
    }
    const relays = Array.from({ length: 3 }, () =>
      createOutboxRelay({ store: outbox.store, driver: queue, batchSize: 7 }),
    );
    const moved = await Promise.all(relays.map((relay) => relay.drain()));
    expect(moved.reduce((a, b) => a + b, 0)).toBe(200);
    const { jobs } = await queue.list({ limit: 500 });
    expect(new Set(jobs.map((job) => (job.payload as { invoice: string }).invoice)).size).toBe(200);
    expect(jobs).toHaveLength(200);
  });

  it('a running relay is woken by the commit (LISTEN/NOTIFY), not by its poll', async () => {
    // Told of each enqueueMany, so the test waits for the relay's and for nothing else.
    let told: (ids: string[]) => void = () => {};
    const enqueued = new Promise<string[]>((resolve) => {
      told = resolve;
    });
    const watched: Driver = {
      ...queue,
      enqueueMany: async (requests) => {
        const answers = await queue.enqueueMany(requests);
        told(requests.map((request) => request.id ?? ''));
        return answers;
      },
    };
    // A poll an hour away: only the commit's NOTIFY can make the relay look again.
    const relay = createOutboxRelay({
      store: outbox.store,
      driver: watched,
      pollIntervalMs: 3_600_000,
    });
    await relay.start();
    try {
      const { id } = await inTransaction((tx) => outbox.stage(tx, invoice, { invoice: 'in_1' }));
      expect(await enqueued).toEqual([id]);
      expect(await queue.get(id)).toMatchObject({ state: 'ready' });
    } finally {
      await relay.stop();
    }
  });
});
