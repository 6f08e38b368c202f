import type { Driver } from '@berth/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { statements } from '../src/sql/index.js';
import { adminPool, openPgDriver } from './pg-factory.js';
import { flatten, type PlanNode } from './plan-nodes.js';

/**
 * A scheduler calls `due` every tick, so its cost must grow with the schedules due, not with
 * those stored (contract/schedules.ts): it reads the partial `schedules_due_idx` (unpaused rows
 * by next_at) and stops past the due ones. Checked after ANALYZE over 3,000 schedules of which 7
 * are due and 40 more are paused with a past nextAt, by the rows each plan node read: counted on
 * the server, never timed. `list`'s two walks read their own indexes up to the limit the same way.
 */

const STORED = 3_000;
const DUE = 7;
const PAUSED_PAST = 40;
const t0 = Date.UTC(2026, 0, 1);

let driver: Driver;
let schema: string;
let dispose: () => Promise<void>;

/** Stores every schedule, a batch of puts at a time (each put is one statement). */
async function storeAll(writes: readonly Parameters<Driver['schedules']['put']>[0][]) {
  for (let from = 0; from < writes.length; from += 100) {
    const stored = await Promise.all(
      writes.slice(from, from + 100).map((write) => driver.schedules.put(write, 0)),
    );
    expect(stored.every((record) => record?.revision === 1)).toBe(true);
  }
}

beforeAll(async () => {
  ({ driver, schema, dispose } = await openPgDriver());
  const write = (n: number, nextAt: number, paused = false) => ({
    name: `s-${String(n).padStart(5, '0')}`,
    ...(n % 300 === 0 && n > 0
      ? { tenantId: 'rare' }
      : n % 3 === 0
        ? { tenantId: `tenant-${n % 5}` }
        : {}),
    cron: '* * * * *',
    job: 'tick',
    payload: { n },
    paused,
    nextAt,
  });
  await storeAll(
    Array.from({ length: STORED }, (_, n) =>
      n < DUE
        ? write(n, t0 - n * 1_000)
        : n < DUE + PAUSED_PAST
          ? write(n, t0 - 60_000, true)
          : write(n, t0 + 60_000 + n * 1_000),
    ),
  );
  await (await adminPool()).query(`ANALYZE "${schema}".schedules`);
}, 120_000);

afterAll(async () => {
  await dispose();
});

async function analyzed(text: string, values: unknown[]): Promise<PlanNode> {
  const { rows } = await (await adminPool()).query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
    `EXPLAIN (ANALYZE, FORMAT JSON) ${text}`,
    values,
  );
  const plan = rows[0]?.['QUERY PLAN'][0]?.Plan;
  if (plan === undefined) throw new Error('no plan');
  return plan;
}

/** EXPLAIN ANALYZE's count of the rows a scan read and its filter dropped. */
type ScanNode = PlanNode & { readonly 'Rows Removed by Filter'?: number };

/** Each scan of a plan, with the index it reads, and the rows it read (kept or filtered out). */
const scansOf = (plan: PlanNode) =>
  flatten(plan)
    .filter((node) => node['Node Type'].endsWith('Scan'))
    .map((node: ScanNode) => ({
      scan: `${node['Node Type']}${node['Index Name'] === undefined ? '' : ` using ${node['Index Name']}`}`,
      rows:
        ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0)) *
        (node['Actual Loops'] ?? 1),
    }));

const sql = () => statements(`"${schema}"`).schedules;
const orderKey = (text: string) => Buffer.from(text, 'utf16le').swap16();
const empty = Buffer.alloc(0);

it('due after ANALYZE reads only the due rows, through the partial schedules_due_idx, never a paused or later one', async () => {
  const due = await driver.schedules.due(t0, 100);
  expect(due.map((schedule) => schedule.nextAt)).toEqual(
    Array.from({ length: DUE }, (_, n) => t0 - (DUE - 1 - n) * 1_000),
  );
  const scans = scansOf(await analyzed(sql().due, [t0, 100]));
  // An ordered Index Scan, or a Bitmap Index Scan then a sort of what it found: either reads DUE.
  expect(scans.filter((scan) => scan.scan.endsWith(' using schedules_due_idx'))).toHaveLength(1);
  expect(scans.map((scan) => scan.scan)).not.toContain('Seq Scan');
  expect(Math.max(...scans.map((scan) => scan.rows))).toBe(DUE);
});

it('list after ANALYZE walks schedules_listed_idx from its position, and a tenant holding few schedules its own schedules_tenant_idx, each reading one page', async () => {
  const after = [orderKey('s-01000'), empty];
  expect(scansOf(await analyzed(sql().list, [...after, 20]))).toEqual([
    { scan: 'Index Scan using schedules_listed_idx', rows: 20 },
  ]);
  // tenant 'rare' holds every 300th schedule (s-00300, s-00600, …): 9 of 3,000.
  expect(scansOf(await analyzed(sql().listTenant, ['rare', empty, empty, 3]))).toEqual([
    { scan: 'Index Scan using schedules_tenant_idx', rows: 3 },
  ]);
  const page = await driver.schedules.list({ tenantId: 'rare', limit: 3 });
  expect(page.schedules.map((schedule) => schedule.name)).toEqual([
    's-00300',
    's-00600',
    's-00900',
  ]);
});

it('due with a backlog past its limit stops at the limit: an ordered Index Scan of schedules_due_idx', async () => {
  // 1,000 more fall due (as after a scheduler's downtime).
  const admin = await adminPool();
  await admin.query(
    `UPDATE "${schema}".schedules SET next_at = $1 WHERE NOT paused AND name >= 's-01000' AND name < 's-02000'`,
    [t0 - 500],
  );
  await admin.query(`ANALYZE "${schema}".schedules`);
  expect(scansOf(await analyzed(sql().due, [t0, 100]))).toEqual([
    { scan: 'Index Scan using schedules_due_idx', rows: 100 },
  ]);
  // By nextAt: s-00006 … s-00001 (t0 - 6 s … t0 - 1 s), then the backlog (t0 - 500 ms) by name.
  const due = await driver.schedules.due(t0, 100);
  expect(due.map((schedule) => schedule.name)).toEqual([
    ...Array.from({ length: DUE - 1 }, (_, n) => `s-${String(DUE - 1 - n).padStart(5, '0')}`),
    ...Array.from({ length: 101 - DUE }, (_, n) => `s-${String(1_000 + n).padStart(5, '0')}`),
  ]);
});
