import { expect, it } from 'vitest';
import { openClaimPlanner } from './claim-planner.js';
import { adminPool, openPgDriver } from './pg-factory.js';
import { buffersOf } from './plan-nodes.js';

const FUTURE_ROWS = 200_000;

/**
 * Runs the claim under EXPLAIN (ANALYZE, BUFFERS), as claim_jobs_v2 runs it, rolled back, and
 * answers the buffers it touched (the root's counts include every node under it).
 */
async function buffersOfClaim(schema: string, names: readonly string[] | null): Promise<number> {
  const planner = await openClaimPlanner(schema);
  try {
    const { Plan: plan } = await planner.explain(
      {
        queues: ['default'],
        now: Date.now(),
        limit: 1,
        workerId: 'w',
        visibilityTimeoutMs: 60_000,
        names,
      },
      'ANALYZE, BUFFERS',
    );
    return buffersOf(plan);
  } finally {
    await planner.close();
  }
}

/** Rows in one statement: `state` rows of priority 5, due an hour from now. */
async function insertFuture(schema: string, state: 'delayed' | 'suspended', name: string) {
  const admin = await adminPool();
  const later = Date.now() + 3_600_000;
  await admin.query(
    `INSERT INTO "${schema}".jobs (id, run_id, name, queue, payload, state, priority, attempts,
       max_attempts, run_at, created_at, updated_at, claim, wait_for)
     SELECT gen_random_uuid(), gen_random_uuid(), $3, 'default', 'null', $4, 5, 0, 3, $1, $2, $2, 0,
       CASE WHEN $4 = 'suspended' THEN 'never' END
     FROM generate_series(1, $5::int)`,
    [later, Date.now(), name, state, FUTURE_ROWS / 2],
  );
  await admin.query(`ANALYZE "${schema}".jobs`);
}

it('claim(1) reads about as much behind 200k future higher-priority rows as behind none, with and without names', async () => {
  const { driver, schema, dispose } = await openPgDriver();
  try {
    await driver.enqueueMany(Array.from({ length: 20 }, () => ({ name: 'x' })));
    await (await adminPool()).query(`ANALYZE "${schema}".jobs`);
    const small = await buffersOfClaim(schema, null);
    const smallNamed = await buffersOfClaim(schema, ['x']);

    await insertFuture(schema, 'delayed', 'x');
    await insertFuture(schema, 'suspended', 'x');
    const large = await buffersOfClaim(schema, null);
    const largeNamed = await buffersOfClaim(schema, ['x']);

    // Walking the future rows would touch thousands of index and heap pages.
    expect(large).toBeLessThan(small * 3 + 20);
    expect(largeNamed).toBeLessThan(smallNamed * 3 + 20);
    const [claimed] = await driver.claim({
      queues: ['default'],
      limit: 1,
      workerId: 'w',
      visibilityTimeoutMs: 60_000,
    });
    expect(claimed?.name).toBe('x');
    expect(claimed?.priority).toBe(0);
  } finally {
    await dispose();
  }
}, 120_000);

it('claim({ names }) reads about as much behind 100k ready rows of another name at higher priority as behind none', async () => {
  const { driver, schema, dispose } = await openPgDriver();
  try {
    await driver.enqueueMany(Array.from({ length: 20 }, () => ({ name: 'wanted' })));
    await (await adminPool()).query(`ANALYZE "${schema}".jobs`);
    const small = await buffersOfClaim(schema, ['wanted']);
    const admin = await adminPool();
    await admin.query(
      `INSERT INTO "${schema}".jobs (id, run_id, name, queue, payload, state, priority, attempts,
         max_attempts, run_at, created_at, updated_at, claim)
       SELECT gen_random_uuid(), gen_random_uuid(), 'other', 'default', 'null', 'ready', 5, 0, 3,
         $1, $1, $1, 0
       FROM generate_series(1, 100000)`,
      [Date.now() - 1_000],
    );
    await admin.query(`ANALYZE "${schema}".jobs`);
    const large = await buffersOfClaim(schema, ['wanted']);
    expect(large).toBeLessThan(small * 3 + 20);
  } finally {
    await dispose();
  }
}, 120_000);

/**
 * `count` running rows of priority -1 whose leases ran out a minute ago (plus `after` ms), one
 * ms apart.
 */
async function insertLapsed(schema: string, count: number, after = 0) {
  const past = Date.now() - 60_000;
  await (await adminPool()).query(
    `INSERT INTO "${schema}".jobs (id, run_id, name, queue, payload, state, priority, attempts,
       max_attempts, run_at, created_at, updated_at, claim, claimed_by, visible_at)
     SELECT gen_random_uuid(), gen_random_uuid(), 'x', 'default', 'null', 'running', -1,
       1 + k % 3, 3, $1::bigint, $1::bigint, $1::bigint, 1, 'dead-worker', $1::bigint + $3 + k
     FROM generate_series(1, $2::int) k`,
    [past, count, after],
  );
  await (await adminPool()).query(`ANALYZE "${schema}".jobs`);
}

/** claim(1)'s buffers, every name and by name, behind 20 ready rows and `lapsed` lapsed leases. */
async function behindLapsed(lapsed: number): Promise<[number, number]> {
  const { driver, schema, dispose } = await openPgDriver();
  try {
    await driver.enqueueMany(Array.from({ length: 20 }, () => ({ name: 'x' })));
    await insertLapsed(schema, lapsed);
    return [await buffersOfClaim(schema, null), await buffersOfClaim(schema, ['x'])];
  } finally {
    await dispose();
  }
}

it('claim(1) reads about as much behind 50k lapsed leases of a dead fleet as behind 5k', async () => {
  // Each backlog in a schema of its own: a measured claim rolls back, and the index entries its
  // marks made would be read again by the next one.
  const [medium, mediumNamed] = await behindLapsed(5_000);
  const [large, largeNamed] = await behindLapsed(50_000);
  // Sorting every lapsed lease reads ten times the pages behind ten times the leases.
  expect(large).toBeLessThan(medium * 1.5 + 20);
  expect(largeNamed).toBeLessThan(mediumNamed * 1.5 + 20);
}, 120_000);

it('lapsed leases are handed out again after the ready rows, and a batch found at once keeps claim order', async () => {
  const { driver, schema, dispose } = await openPgDriver();
  try {
    await driver.enqueueMany(Array.from({ length: 20 }, () => ({ name: 'x' })));
    await insertLapsed(schema, 1_000);
    const claimed = await driver.claim({
      queues: ['default'],
      limit: 30,
      workerId: 'w',
      visibilityTimeoutMs: 60_000,
    });
    expect(claimed.map((job) => job.priority)).toEqual([
      ...Array(20).fill(0),
      ...Array(10).fill(-1),
    ]);
    // Attempts left: handed out (attempts + 1); final attempts: buried, never handed out.
    expect(claimed.slice(20).every((job) => job.attempts === 2 || job.attempts === 3)).toBe(true);
    // The rest were found lapsed and wait in claim order: the next claims take them all.
    let taken = claimed.length - 20;
    for (;;) {
      const batch = await driver.claim({
        queues: ['default'],
        limit: 500,
        workerId: 'w',
        visibilityTimeoutMs: 60_000,
      });
      if (batch.length === 0) break;
      taken += batch.length;
    }
    const { rows } = await (await adminPool()).query<{ state: string; n: string }>(
      `SELECT state, count(*) AS n FROM "${schema}".jobs WHERE priority = -1 GROUP BY state
       ORDER BY state`,
    );
    expect(rows.map((row) => [row.state, Number(row.n)])).toEqual([
      ['dead', 333],
      ['running', 1_000 - 333],
    ]);
    expect(taken).toBe(1_000 - 333);
  } finally {
    await dispose();
  }
}, 120_000);
