import { createManualClock } from '@berth/core';
import { expect, it } from 'vitest';
import { adminPool, openPgDriver } from './pg-factory.js';
import { blockedOn, settled } from './sessions.js';

const count = async (schema: string, table: string) => {
  const { rows } = await (await adminPool()).query<{ n: string }>(
    `SELECT count(*) AS n FROM "${schema}".${table}`,
  );
  return Number(rows[0]?.n);
};

/** `n` finished rows in one statement, the k-th finished at `at + k` (and inserted k-th). */
async function finished(schema: string, at: number, n: number, state = 'completed') {
  await (await adminPool()).query(
    `INSERT INTO "${schema}".jobs (id, run_id, name, queue, payload, state, priority, attempts,
       max_attempts, run_at, created_at, updated_at, finished_at, claim)
     SELECT gen_random_uuid(), gen_random_uuid(), 'done', 'default', to_json(k), $3, 0, 1, 3,
       $1::bigint, $1::bigint, $1::bigint, $1::bigint + k, 1
     FROM generate_series(1, $2::int) AS k`,
    [at, n, state],
  );
}

it('purge without a limit removes at most 1,000 rows per call, oldest finish first, and answers the exact count', async () => {
  const clock = createManualClock();
  const { driver, schema, dispose } = await openPgDriver({ clock });
  try {
    // Inserted newest finish first, so insertion order alone would purge the wrong rows.
    await finished(schema, clock.now() + 2_000, 300);
    await finished(schema, clock.now(), 1_200);
    const request = { states: ['completed' as const], olderThan: clock.now() + 10_000 };
    expect(await driver.purge(request)).toBe(1_000);
    const { rows } = await (await adminPool()).query<{ oldest: string }>(
      `SELECT min(finished_at) AS oldest FROM "${schema}".jobs`,
    );
    expect(Number(rows[0]?.oldest)).toBe(clock.now() + 1_001);
    expect(await driver.purge(request)).toBe(500);
    expect(await driver.purge(request)).toBe(0);
  } finally {
    await dispose();
  }
});

it('purge skips a row another transaction holds instead of waiting for it', async () => {
  const clock = createManualClock();
  const { driver, schema, dispose } = await openPgDriver({ clock });
  const locker = await (await adminPool()).connect();
  try {
    await finished(schema, clock.now(), 3, 'cancelled');
    const { rows } = await locker.query<{ id: string }>(
      `SELECT id FROM "${schema}".jobs ORDER BY seq`,
    );
    const ids = rows.map((row) => row.id);
    await locker.query('BEGIN');
    await locker.query(`SELECT 1 FROM "${schema}".jobs WHERE id = $1 FOR UPDATE`, [ids[0]]);
    const purge = driver.purge({ states: ['cancelled'], olderThan: clock.now() + 10 });
    // A purge that waits on the held row is the bug; one that answers never blocks.
    expect(await blockedOn('DELETE', settled(purge))).toBeUndefined();
    expect(await purge).toBe(2);
    await locker.query('COMMIT');
    expect((await driver.list({ limit: 10 })).jobs.map((job) => job.id)).toEqual([ids[0]]);
  } finally {
    await locker.query('ROLLBACK');
    locker.release();
    await dispose();
  }
});

it('events.purgeExpired removes at most 1,000 events per call and answers the exact count', async () => {
  const clock = createManualClock();
  const { driver, schema, dispose } = await openPgDriver({ clock });
  try {
    await (await adminPool()).query(
      `INSERT INTO "${schema}".events (id, name, payload, published_at, expires_at)
       SELECT gen_random_uuid(), 'gone', to_json(k), $1::bigint, $1::bigint + 1 FROM generate_series(1, 1500) k`,
      [clock.now()],
    );
    await driver.events.publish('kept', {}, { ttl: 60_000 });
    await clock.advance(1_000);
    expect(await driver.events.purgeExpired()).toBe(1_000);
    expect(await driver.events.purgeExpired()).toBe(500);
    expect(await driver.events.purgeExpired()).toBe(0);
    expect(await count(schema, 'events')).toBe(1);
  } finally {
    await dispose();
  }
});

it('a released slot leaves no row behind, and slots whose holders all expired are swept', async () => {
  const clock = createManualClock();
  const { driver, schema, dispose } = await openPgDriver({ clock });
  try {
    expect(await driver.leases.acquireSlot('one', 2, 'a', 1_000)).toBe(true);
    expect(await driver.leases.acquireSlot('one', 2, 'b', 1_000)).toBe(true);
    expect(await driver.leases.releaseSlot('one', 'a')).toBe(true);
    expect(await count(schema, 'slot_keys')).toBe(1);
    expect(await count(schema, 'slot_holders')).toBe(1);
    expect(await driver.leases.releaseSlot('one', 'b')).toBe(true);
    expect(await count(schema, 'slot_keys')).toBe(0);
    expect(await count(schema, 'slot_holders')).toBe(0);

    // Fifty keys whose holders stop without releasing.
    for (let n = 0; n < 50; n += 1) {
      expect(await driver.leases.acquireSlot(`crashed-${n}`, 1, 'gone', 1_000)).toBe(true);
    }
    expect(await count(schema, 'slot_keys')).toBe(50);
    expect(await count(schema, 'slot_holders')).toBe(50);
    await clock.advance(1_000);
    expect(await driver.leases.acquireSlot('fresh', 1, 'c', 1_000)).toBe(true);
    expect(await driver.leases.releaseSlot('fresh', 'c')).toBe(true);
    expect(await count(schema, 'slot_keys')).toBe(0);
    expect(await count(schema, 'slot_holders')).toBe(0);
  } finally {
    await dispose();
  }
});
