import { expect, it } from 'vitest';
import { openClaimPlanner } from './claim-planner.js';
import { adminPool, openPgDriver } from './pg-factory.js';
import { buffersOf, flatten } from './plan-nodes.js';

/**
 * The claim walks due delayed and suspended rows one priority level at a time (migration 6): it
 * costs one probe per level and the rows it takes, whatever the number of waiting rows, and it
 * takes the best due row however many older due rows of lower priority wait ahead of it.
 */

interface Waiting {
  readonly state: 'delayed' | 'suspended';
  readonly count: number;
  /** Priorities cycle over 0 .. levels - 1, offset by `priority`. */
  readonly priority: number;
  readonly levels?: number;
  /** run_at of the k-th row (k from 1): `at + k`. */
  readonly at: number;
}

/** Inserts waiting rows in one statement, in insertion order k = 1 .. count. */
async function insertWaiting(schema: string, rows: Waiting) {
  await (await adminPool()).query(
    `INSERT INTO "${schema}".jobs (id, run_id, name, queue, payload, state, priority, attempts,
       max_attempts, run_at, created_at, updated_at, claim)
     SELECT gen_random_uuid(), gen_random_uuid(), 'x', 'default', 'null', $1, $2 + k % $3, 0, 3,
       $4::bigint + k, $4::bigint, $4::bigint, 0
     FROM generate_series(1, $5::int) k`,
    [rows.state, rows.priority, rows.levels ?? 1, rows.at, rows.count],
  );
}

/** claim(limit)'s plan under EXPLAIN (ANALYZE, BUFFERS), as claim_jobs_v2 runs it, rolled back. */
async function claimPlan(schema: string, limit: number, names: readonly string[] | null) {
  const planner = await openClaimPlanner(schema);
  try {
    const explained = { queues: ['default'], now: Date.now(), limit, workerId: 'w', names };
    return await planner.explain({ ...explained, visibilityTimeoutMs: 60_000 }, 'ANALYZE, BUFFERS');
  } finally {
    await planner.close();
  }
}

/**
 * A schema with `backlog` due rows of priority 0 (two thirds delayed, a third suspended), the
 * half as many rows over ten higher priorities due in an hour, and one delayed row of
 * priority 5 that fell due after all of them: the buffers claim(limit) reads, every name and by
 * name, and what claim(limit) then takes.
 */
async function behindDue(backlog: number, limit: number, analyze: boolean) {
  const { driver, schema, dispose } = await openPgDriver();
  try {
    const past = Date.now() - 600_000;
    await insertWaiting(schema, {
      state: 'delayed',
      count: (backlog * 2) / 3,
      priority: 0,
      at: past,
    });
    await insertWaiting(schema, { state: 'suspended', count: backlog / 3, priority: 0, at: past });
    const later = Date.now() + 3_600_000;
    await insertWaiting(schema, {
      state: 'delayed',
      count: backlog,
      priority: 6,
      levels: 10,
      at: later,
    });
    await insertWaiting(schema, {
      state: 'delayed',
      count: 1,
      priority: 5,
      at: Date.now() - 1_000,
    });
    if (analyze) await (await adminPool()).query(`ANALYZE "${schema}".jobs`);
    const plans = [await claimPlan(schema, limit, null), await claimPlan(schema, limit, ['x'])];
    for (const plan of plans) {
      const shown = JSON.stringify(plan);
      expect(shown).not.toContain('Seq Scan');
      expect(shown).toContain(plan === plans[0] ? 'jobs_due_order_idx' : 'jobs_due_order_name_idx');
    }
    const claimed = await driver.claim({
      queues: ['default'],
      limit,
      workerId: 'w',
      visibilityTimeoutMs: 60_000,
    });
    return {
      buffers: plans.map((plan) => buffersOf(plan.Plan)),
      priorities: claimed.map((job) => job.priority),
    };
  } finally {
    await dispose();
  }
}

it('claim(1) reads about as much behind 12k due rows and 6k rows due later over ten higher priorities as behind 1.2k and 600, and takes the priority-5 row that fell due last', async () => {
  const small = await behindDue(1_200, 1, false);
  const large = await behindDue(12_000, 1, false);
  expect(small.priorities).toEqual([5]);
  expect(large.priorities).toEqual([5]);
  for (const [index, buffers] of large.buffers.entries()) {
    // Reading the due rows, or the rows not due, would touch ten times the pages.
    expect(buffers).toBeLessThan((small.buffers[index] ?? 0) * 1.5 + 20);
  }
}, 120_000);

it('after ANALYZE, claim(500) behind 12k due rows takes the priority-5 row, then 499 due rows in claim order, reading about as much as behind 1.2k', async () => {
  const small = await behindDue(1_200, 500, true);
  const large = await behindDue(12_000, 500, true);
  expect(large.priorities).toEqual([5, ...Array(499).fill(0)]);
  for (const [index, buffers] of large.buffers.entries()) {
    expect(buffers).toBeLessThan((small.buffers[index] ?? 0) * 1.5 + 20);
  }
}, 120_000);

it('claim(100) behind 100 ready rows of priority 5 locks none of 1,000 due rows of priority 0, and takes the ready rows', async () => {
  const { driver, schema, dispose } = await openPgDriver();
  try {
    await insertWaiting(schema, {
      state: 'delayed',
      count: 1_000,
      priority: 0,
      at: Date.now() - 60_000,
    });
    await driver.enqueueMany(Array.from({ length: 100 }, () => ({ name: 'x', priority: 5 })));
    const plan = await claimPlan(schema, 100, null);
    // The level's rows are read by a plain index scan (the probe of each level reads one entry).
    const taken = flatten(plan.Plan).filter(
      (node) => node['Node Type'] === 'Index Scan' && node['Index Name'] === 'jobs_due_order_idx',
    );
    expect(taken).not.toEqual([]);
    expect(taken.map((node) => (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 0))).toEqual(
      taken.map(() => 0),
    );
    const claimed = await driver.claim({
      queues: ['default'],
      limit: 100,
      workerId: 'w',
      visibilityTimeoutMs: 60_000,
    });
    expect(claimed.map((job) => job.priority)).toEqual(Array(100).fill(5));
  } finally {
    await dispose();
  }
}, 60_000);
