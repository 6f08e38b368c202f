import { createOutboxRelay } from '@berth/core';
import { expect, it } from 'vitest';
import { berth, berthJson, errorDoc } from './support/berth.js';
import { deadOutboxRows, dropDeadOutbox } from './support/outbox.js';
import { pgTarget } from './support/targets.js';

it('berth outbox: stats and dead show what waits and what the queue refused; retry stages a dead row again, discard removes one', async () => {
  const target = await pgTarget();
  // Two rows staged, then refused by a queue that takes nothing: dead in the outbox.
  const { outbox, url, schema, ids } = await deadOutboxRows(target.driver);
  const flags = ['--outbox-url', url, '--outbox-schema', schema];
  try {
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
    await outbox.close();
    await dropDeadOutbox(target.driver);
    await target.dispose();
  }
});

it('berth outbox without a postgres URL says which flag names the outbox', async () => {
  const ran = await berth(['outbox', 'stats', '--url', 'redis://127.0.0.1:6379']);
  expect(ran.code).toBe(2);
  expect(ran.stderr).toContain('--outbox-url');
});
