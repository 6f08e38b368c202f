import { expect, it } from 'vitest';
import { type ClaimArgs, openClaimPlanner } from './claim-planner.js';
import { adminPool, openPgDriver } from './pg-factory.js';
import { buffersOf } from './plan-nodes.js';

const args = (names: readonly string[] | null, limit = 10): ClaimArgs => ({
  queues: ['q0', 'q1'],
  now: Date.now(),
  limit,
  workerId: 'w',
  visibilityTimeoutMs: 1_000,
  names,
});

it('a claim walks jobs_ready_idx in claim order, reads due rows from jobs_due_order_idx and reads newly lapsed leases from jobs_lease_expiry_idx and those found earlier from jobs_lapsed_idx, sorting no backlog', async () => {
  const { driver, schema, dispose } = await openPgDriver();
  const planner = await openClaimPlanner(schema);
  try {
    for (let batch = 0; batch < 5; batch += 1) {
      await driver.enqueueMany(
        Array.from({ length: 1_000 }, (_, n) => ({
          name: 'x',
          queue: `q${n % 2}`,
          priority: n % 4,
        })),
      );
    }
    await (await adminPool()).query(`ANALYZE "${schema}".jobs`);
    const shown = JSON.stringify(await planner.explain(args(null)));
    expect(shown).toContain('jobs_ready_idx');
    expect(shown).toContain('jobs_due_order_idx');
    expect(shown).toContain('jobs_lease_expiry_idx');
    expect(shown).toContain('jobs_lapsed_idx');
    expect(shown).toContain('jobs_lapsed_final_idx');
    expect(shown).not.toContain('Seq Scan');
  } finally {
    await planner.close();
    await dispose();
  }
});

it('claim_jobs_v2 is planned once per session, on a generic plan, without JIT', async () => {
  const { schema, dispose } = await openPgDriver();
  const planner = await openClaimPlanner(schema);
  try {
    expect([...planner.settings].sort()).toEqual([
      'enable_seqscan=off',
      'jit=off',
      'plan_cache_mode=force_generic_plan',
    ]);
  } finally {
    await planner.close();
    await dispose();
  }
});

it('a claim plan made while jobs was empty and never ANALYZEd still reaches 30k rows of backlog by index, and claims the best rows', async () => {
  const { driver, schema, dispose } = await openPgDriver();
  const planner = await openClaimPlanner(schema);
  try {
    // The session's plans, made on an empty table whose statistics promise nothing to read.
    await planner.run(args(null));
    await planner.run(args(['x']));
    const admin = await adminPool();
    await admin.query(
      `INSERT INTO "${schema}".jobs (id, run_id, name, queue, payload, state, priority, attempts,
         max_attempts, run_at, created_at, updated_at, claim, finished_at)
       SELECT gen_random_uuid(), gen_random_uuid(), 'x', 'q' || (g % 2), 'null', s.state, 0, 0, 3,
         CASE WHEN s.state = 'delayed' THEN $1::bigint + 3600000 ELSE $1::bigint END, $1, $1, 0,
         CASE WHEN s.state = 'completed' THEN $1 END
       FROM generate_series(1, 30000) g,
         LATERAL (SELECT (ARRAY['ready', 'delayed', 'completed'])[1 + g % 3] AS state) s`,
      [Date.now() - 1_000],
    );
    await driver.enqueueMany(
      Array.from({ length: 10 }, () => ({ name: 'x', queue: 'q1', priority: 9 })),
    );
    for (const names of [null, ['x']]) {
      const plan = await planner.explain(args(names), 'ANALYZE, BUFFERS');
      const shown = JSON.stringify(plan);
      expect(shown).not.toContain('Seq Scan');
      expect(shown).toContain('jobs_id_pkey');
      // Reading 30k rows would touch thousands of pages; the walk touches tens.
      expect(buffersOf(plan.Plan)).toBeLessThan(500);
    }
    const claimed = await driver.claim({
      queues: ['q0', 'q1'],
      limit: 10,
      workerId: 'w',
      visibilityTimeoutMs: 1_000,
    });
    expect(claimed.map((job) => job.priority)).toEqual(Array(10).fill(9));
  } finally {
    await planner.close();
    await dispose();
  }
}, 60_000);
