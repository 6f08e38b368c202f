import { randomUUID } from 'node:crypto';
import type { ClaimedJob } from '@berth/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { statements } from '../src/sql/index.js';
import { openClaimPlanner } from './claim-planner.js';
import { adminPool, openPgDriver } from './pg-factory.js';
import { flatten, type PlanNode } from './plan-nodes.js';

/**
 * The hot path's statements are planned by their shape, not by the table's history: each finds
 * its rows through an index (never a Seq Scan on jobs), and no Nested Loop re-scans the batch's
 * input for every row of its other side (the plan a "1 running row" estimate used to pick, which
 * is quadratic in the batch). Checked on a table never ANALYZEd and again after ANALYZE, with
 * 20k completed rows, 1k running and 1k ready, and again after an ANALYZE that saw no running
 * row (the statistics then promise ~0 running rows while a batch of 1k runs).
 */

const BATCH = 1_000;
const INPUT_SCANS = new Set(['Function Scan', 'CTE Scan', 'WorkTable Scan', 'Materialize']);

/** The claim's queue and name lists (aliases q and n, numbered when repeated): not the batch. */
const KEY_LIST = /^[qn](_\d+)?$/;

/**
 * Input scans a node would repeat each time it runs: a hashed subplan is built once, and an
 * initplan (which reads nothing of the row it runs for) runs once per statement.
 */
const repeatedInputs = (node: PlanNode): PlanNode[] => [
  ...(INPUT_SCANS.has(node['Node Type']) && !KEY_LIST.test(node.Alias ?? '') ? [node] : []),
  ...(node.Plans ?? [])
    .filter((sub) => !hashed(node, sub) && sub['Parent Relationship'] !== 'InitPlan')
    .flatMap(repeatedInputs),
];

/** EXPLAIN names a hashed subplan only in the expression of the node that uses it. */
const hashed = (node: PlanNode, sub: PlanNode) =>
  sub['Parent Relationship'] === 'SubPlan' &&
  JSON.stringify({ ...node, Plans: [] }).includes(`hashed ${sub['Subplan Name']}`);

/** What a plan does that the hot path must not: every offending node, described. */
function offences(root: PlanNode): string[] {
  const found: string[] = [];
  for (const node of flatten(root)) {
    if (node['Node Type'] === 'Seq Scan' && node['Relation Name'] === 'jobs') {
      found.push('Seq Scan on jobs');
    }
    // The walk over items sharing an id or key with another item is ordered by nature (see
    // enqueue-many.ts); the batches below share none, so it walks nothing.
    if (node['Node Type'] === 'Recursive Union') continue;
    // EXPLAIN lists a node's initplans among its children, before its outer and inner sides.
    const inner =
      node['Node Type'] === 'Nested Loop'
        ? node.Plans?.find((sub) => sub['Parent Relationship'] === 'Inner')
        : undefined;
    if (inner !== undefined) {
      for (const input of repeatedInputs(inner)) {
        found.push(`Nested Loop re-scanning ${input['Node Type']} per outer row`);
      }
    }
    for (const sub of node.Plans ?? []) {
      if (sub['Parent Relationship'] !== 'SubPlan' || hashed(node, sub)) continue;
      for (const input of repeatedInputs(sub)) {
        found.push(`SubPlan re-scanning ${input['Node Type']} per row`);
      }
    }
  }
  return found;
}

let driver: Awaited<ReturnType<typeof openPgDriver>>['driver'];
let schema: string;
let dispose: () => Promise<void>;
let running: readonly ClaimedJob[];

const fence = (job: ClaimedJob) => ({ jobId: job.id, workerId: job.claimedBy, claim: job.claim });

beforeAll(async () => {
  ({ driver, schema, dispose } = await openPgDriver());
  // "Never ANALYZEd" must hold until the test says otherwise.
  await (await adminPool()).query(`ALTER TABLE "${schema}".jobs SET (autovacuum_enabled = false)`);
  for (let batch = 0; batch < 22; batch += 1) {
    await driver.enqueueMany(Array.from({ length: BATCH }, (_, n) => ({ name: 'x', payload: n })));
  }
  for (let batch = 0; batch < 20; batch += 1) {
    const jobs = await driver.claim({
      queues: ['default'],
      workerId: 'w',
      visibilityTimeoutMs: 600_000,
      limit: BATCH,
    });
    await driver.ackMany(jobs.map((job) => ({ fence: fence(job) })));
  }
  running = await driver.claim({
    queues: ['default'],
    workerId: 'w',
    visibilityTimeoutMs: 600_000,
    limit: BATCH,
  });
}, 120_000);

afterAll(async () => {
  await dispose();
});

async function planOf(text: string, values: unknown[]): Promise<PlanNode> {
  const { rows } = await (await adminPool()).query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
    `EXPLAIN (FORMAT JSON) ${text}`,
    values,
  );
  const plan = rows[0]?.['QUERY PLAN'][0]?.Plan;
  if (plan === undefined) throw new Error('no plan');
  return plan;
}

/** Every hot-path statement with a full batch's parameters, by name. */
function hotPath(on = schema): Record<string, [string, unknown[]]> {
  const sql = statements(`"${on}"`);
  const now = Date.now();
  const column = <T>(pick: (job: ClaimedJob, index: number) => T) => running.map(pick);
  const fences = [column((j) => j.id), column((j) => j.claimedBy), column((j) => j.claim)];
  const fresh = (pick: (index: number) => unknown) =>
    Array.from({ length: BATCH }, (_, i) => pick(i));
  const first = running[0] as ClaimedJob;
  return {
    ack: [sql.settle.ack, [first.id, first.claimedBy, first.claim, now, false, null, 's']],
    extend: [sql.settle.extend, [first.id, first.claimedBy, first.claim, now, 60_000]],
    nack: [
      sql.settle.nack,
      [first.id, first.claimedBy, first.claim, now, '{}', null, false, true, 'c', false, 's'],
    ],
    ackMany: [sql.settle.ackMany, [...fences, column(() => false), column(() => null), now, 's']],
    nackMany: [
      sql.settle.nackMany,
      [
        ...fences,
        column(() => '{}'),
        column(() => null),
        column(() => false),
        column(() => true),
        column(() => false),
        now,
        'c',
        's',
      ],
    ],
    insertPlain: [
      sql.enqueueMany.insertPlain,
      [
        fresh(() => randomUUID()),
        fresh(() => randomUUID()),
        fresh(() => 'x'),
        fresh(() => 'default'),
        fresh((i) => JSON.stringify(i)),
        fresh(() => now),
        fresh(() => 0),
        fresh(() => 3),
        ...Array.from({ length: 5 }, () => fresh(() => null)),
        now,
        'c',
      ],
    ],
    insertMany: [
      sql.enqueueMany.insertMany,
      [
        fresh((i) => i + 1),
        fresh(() => randomUUID()),
        fresh((i) => i % 2 === 0),
        fresh(() => randomUUID()),
        fresh(() => 'x'),
        fresh(() => 'default'),
        fresh((i) => JSON.stringify(i)),
        fresh(() => now),
        fresh(() => 0),
        fresh(() => 3),
        fresh((i) => `key-${i}`),
        fresh(() => false),
        ...Array.from({ length: 5 }, () => fresh(() => null)),
        fresh((i) => JSON.stringify(['x', null, `key-${i}`])),
        now,
        'c',
      ],
    ],
  };
}

/** The claim's plans as claim_jobs makes them (see claim-planner.ts), with and without names. */
async function claimPlans(on: string): Promise<Record<string, PlanNode>> {
  const planner = await openClaimPlanner(on);
  try {
    const claim = (names: readonly string[] | null) =>
      planner.explain({
        queues: ['default'],
        now: Date.now(),
        limit: BATCH,
        workerId: 'w2',
        visibilityTimeoutMs: 60_000,
        names,
      });
    return {
      claim: (await claim(null)).Plan,
      claimNamed: (await claim(['x'])).Plan,
    };
  } finally {
    await planner.close();
  }
}

async function offencesByStatement(on = schema): Promise<Record<string, string[]>> {
  const answer: Record<string, string[]> = {};
  for (const [name, plan] of Object.entries(await claimPlans(on))) answer[name] = offences(plan);
  for (const [name, [text, values]] of Object.entries(hotPath(on))) {
    answer[name] = offences(await planOf(text, values));
  }
  return answer;
}

it('on a jobs table never ANALYZEd, claim, settles and enqueue batches reach rows by index and never re-scan the batch per row', async () => {
  const { rows } = await (await adminPool()).query<{ reltuples: number }>(
    `SELECT reltuples FROM pg_class WHERE oid = $1::regclass`,
    [`"${schema}".jobs`],
  );
  expect(rows[0]?.reltuples).toBe(-1);
  const found = await offencesByStatement();
  expect(found).toEqual(Object.fromEntries(Object.keys(found).map((name) => [name, []])));
});

it('after ANALYZE of 20k completed, 1k running and 1k ready rows, the same statements keep the same index paths', async () => {
  await (await adminPool()).query(`ANALYZE "${schema}".jobs`);
  const found = await offencesByStatement();
  expect(found).toEqual(Object.fromEntries(Object.keys(found).map((name) => [name, []])));
});

it('after an ANALYZE that saw 20k ready rows and no running one, settles of a 1k batch claimed since keep the same index paths', async () => {
  const other = await openPgDriver();
  try {
    for (let batch = 0; batch < 20; batch += 1) {
      await other.driver.enqueueMany(
        Array.from({ length: BATCH }, (_, n) => ({ name: 'x', payload: n })),
      );
    }
    await (await adminPool()).query(`ANALYZE "${other.schema}".jobs`);
    running = await other.driver.claim({
      queues: ['default'],
      workerId: 'w',
      visibilityTimeoutMs: 600_000,
      limit: BATCH,
    });
    expect(running).toHaveLength(BATCH);
    const found = await offencesByStatement(other.schema);
    expect(found).toEqual(Object.fromEntries(Object.keys(found).map((name) => [name, []])));
  } finally {
    await other.dispose();
  }
}, 60_000);

it('a settle batch reaches its rows through the id primary key in one index pass, with no probe per item', async () => {
  for (const name of ['ackMany', 'nackMany']) {
    const statement = hotPath()[name];
    if (statement === undefined) throw new Error(`no ${name}`);
    const nodes = flatten(await planOf(...statement));
    // The batch decides which item of a row may land (the first per fence); jobs is read once,
    // by one scan of the primary key for the whole id array (bitmap or plain: time-ordered ids
    // follow the heap's order, so the planner may read them in index order), never per item.
    const reads = nodes.filter((node) => node['Index Name'] !== undefined);
    expect(reads.map((node) => node['Index Name'])).toEqual(['jobs_id_pkey']);
    expect(['Bitmap Index Scan', 'Index Scan']).toContain(reads[0]?.['Node Type']);
    expect(nodes.filter((node) => node['Node Type'] === 'Nested Loop')).toEqual([]);
    expect(nodes.filter((node) => node['Relation Name'] === 'jobs')).toHaveLength(2);
  }
});
