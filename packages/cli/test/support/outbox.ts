import { randomUUID } from 'node:crypto';
import { createOutboxRelay, type Driver, defineJob, jobInvalid } from '@berth/core';
import { createPgOutbox, type PgOutbox } from '@berth/driver-pg';
import { dropPgSchema, serverUrl } from '@berth/test-servers';

const note = defineJob<{ n: number }>({ name: 'note.send', run: async () => {} });
/** The outbox schema each queue driver's README case made, to drop after the check. */
const made = new WeakMap<Driver, { url: string; schema: string }>();

/**
 * An outbox of its own schema holding two dead rows (staged, then refused by a queue that takes
 * nothing); answers it, its url and schema, and the rows' ids.
 */
export async function deadOutboxRows(
  driver: Driver,
): Promise<{ outbox: PgOutbox; url: string; schema: string; ids: string[] }> {
  const url = await serverUrl('pg');
  const schema = `t_cli_outbox_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const outbox = createPgOutbox({ connectionString: url, schema });
  await outbox.migrate();
  const ids: string[] = [];
  const pg = await import('pg');
  const client = new pg.default.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN');
    for (let n = 0; n < 2; n += 1) ids.push((await outbox.stage(client, note, { n })).id);
    await client.query('COMMIT');
  } finally {
    await client.end();
  }
  const refusing: Driver = {
    ...driver,
    enqueueMany: () => Promise.reject(jobInvalid('payload', 'refused by the test')),
    enqueue: (() =>
      Promise.reject(jobInvalid('payload', 'refused by the test'))) as Driver['enqueue'],
  };
  await createOutboxRelay({ store: outbox.store, driver: refusing }).drain();
  made.set(driver, { url, schema });
  return { outbox, url, schema, ids };
}

/** Drops the outbox schema `deadOutboxRows` made for `driver`. */
export async function dropDeadOutbox(driver: Driver): Promise<void> {
  const outbox = made.get(driver);
  if (outbox !== undefined) await dropPgSchema(outbox.url, outbox.schema);
}
