import { randomUUID } from 'node:crypto';
import {
  createOutboxRelay,
  type Driver,
  defineJob,
  type EnqueueRequest,
  jobInvalid,
} from '@berth/core';
import { createPgOutbox } from '@berth/driver-pg';
import { dropPgSchema, serverUrl } from '@berth/test-servers';
import pg from 'pg';
import { expect, it } from 'vitest';
import { berth, berthJson, errorDoc } from './support/berth.js';
import { pgTarget } from './support/targets.js';

const note = defineJob<{ n: number }>({ name: 'note.send', run: async () => {} });

it('berth outbox: stats and dead show what waits and what the queue refused; retry stages a dead row again, discard removes one', async () => {
  const url = await serverUrl('pg');
  const schema = `t_cli_outbox_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const outbox = createPgOutbox({ pool, schema });
  const target = await pgTarget();
  const flags = ['--outbox-url', url, '--outbox-schema', schema];
  try {
    await outbox.migrate();
    const tx = await pool.connect();
    const ids: string[] = [];
    await tx.query('BEGIN');
    for (let n = 0; n < 3; n += 1) ids.push((await outbox.stage(tx, note, { n })).id);
    await tx.query('COMMIT');
    tx.release();
    // A queue that refuses the first two rows: they stay dead in the outbox.
    const refusing: Driver = {
      ...target.driver,
      enqueueMany: () => Promise.reject(jobInvalid('payload', 'refused by the test')),
      enqueue: (async (request: EnqueueRequest) => {
        if (request.id !== ids[2]) throw jobInvalid('payload', 'refused by the test');
        return target.driver.enqueue(request);
      }) as Driver['enqueue'],
    };
    await createOutboxRelay({ store: outbox.store, driver: refusing }).drain();

    const stats = await berthJson<{ outbox: { staged: number; dead: number } }>([
      'outbox',
      'stats',
      ...flags,
    ]);
    expect(stats.doc.outbox).toEqual({ staged: 0, dead: 2 });
    const dead = await berthJson<{ dead: { row: { id: string }; refusal: { code: string } }[] }>([
      'outbox',
      'dead',
      ...flags,
    ]);
    expect(dead.doc.dead.map((row) => [row.row.id, row.refusal.code])).toEqual([
      [ids[0], 'JOB_INVALID'],
      [ids[1], 'JOB_INVALID'],
    ]);
    const text = await berth(['outbox', 'dead', ...flags]);
    expect(text.stdout).toContain('note.send');
    expect(text.stdout).toContain('JOB_INVALID: ');

    const retried = await berthJson<{ retried: string[] }>([
      'outbox',
      'retry',
      ids[0] ?? '',
      ...flags,
    ]);
    expect(retried.doc.retried).toEqual([ids[0]]);
    await createOutboxRelay({ store: outbox.store, driver: target.driver }).drain();
    expect(await target.driver.get(ids[0] ?? '')).toMatchObject({ state: 'ready' });

    // Without --yes and without a terminal, discard is refused before it changes anything.
    const unconfirmed = await berth(['outbox', 'discard', ids[1] ?? '', '--json', ...flags]);
    expect(unconfirmed.code).not.toBe(0);
    expect(errorDoc(unconfirmed).code).toBe('CONFIRMATION_REQUIRED');
    const discarded = await berthJson<{ discarded: string[] }>([
      'outbox',
      'discard',
      ids[1] ?? '',
      '--yes',
      ...flags,
    ]);
    expect(discarded.doc.discarded).toEqual([ids[1]]);
    expect((await outbox.stats()).dead).toBe(0);

    // An id that is not a dead row is named, and the exit says so.
    const missing = await berth(['outbox', 'retry', ids[1] ?? '', ...flags]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`not dead rows of the outbox (nothing to retry): ${ids[1]}`);
  } finally {
    await target.dispose();
    await outbox.close();
    await pool.end();
    await dropPgSchema(url, schema);
  }
});

it('berth outbox without a postgres URL says which flag names the outbox', async () => {
  const ran = await berth(['outbox', 'stats', '--url', 'redis://127.0.0.1:6379']);
  expect(ran.code).toBe(2);
  expect(ran.stderr).toContain('--outbox-url');
});
