import { randomUUID } from 'node:crypto';
import type { Driver } from '@berth/core';
import { serverUrl } from '@berth/test-servers';
import pg from 'pg';
import { afterEach, expect, it, vi } from 'vitest';
import { preparedNames } from '../src/prepared.js';
import { statements } from '../src/sql/index.js';
import { openPgDriver } from './pg-factory.js';
import { flatten, type PlanNode } from './plan-nodes.js';

/**
 * The idle enqueue → claim path sends its statements prepared on any pool: each connection
 * parses the text once, then binds it (the claim is a call of claim_jobs_v2, which keeps its own
 * plan per session). Counted in the sessions themselves: `pg_prepared_statements` lists named
 * statements only (text sent unnamed leaves none).
 */

const pools: pg.Pool[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(pools.splice(0).map((pool) => pool.end()));
});

async function oneConnection(): Promise<pg.Pool> {
  const pool = new pg.Pool({ connectionString: await serverUrl('pg'), max: 1 });
  pool.on('error', () => {});
  pools.push(pool);
  return pool;
}

interface Queryable {
  query<R extends pg.QueryResultRow>(text: string): Promise<pg.QueryResult<R>>;
}

/** A session's prepared statements (hash dropped): name → [generic plans, custom plans]. */
async function preparedOf(session: Queryable): Promise<Map<string, [number, number]>> {
  const { rows } = await session.query<{ name: string; generic: string; custom: string }>(
    'SELECT name, generic_plans AS generic, custom_plans AS custom FROM pg_prepared_statements',
  );
  return new Map(
    rows.map((row) => [
      row.name.replace(/_[0-9a-f]{16}$/, ''),
      [Number(row.generic), Number(row.custom)],
    ]),
  );
}

/** Five enqueue → claim (by name) → claim (every name) cycles. */
async function cycles(driver: Driver): Promise<void> {
  for (let n = 0; n < 5; n += 1) {
    await driver.enqueue({ name: 'noop', payload: { n } });
    const jobs = await driver.claim({
      queues: ['default'],
      workerId: 'w',
      visibilityTimeoutMs: 30_000,
      names: ['noop'],
    });
    expect(jobs).toHaveLength(1);
    await driver.claim({ queues: ['default'], workerId: 'w', visibilityTimeoutMs: 30_000 });
  }
}

async function cyclesOn(pool: pg.Pool, options: { preparedStatements?: boolean } = {}) {
  const { driver, dispose } = await openPgDriver({ pool, ...options });
  try {
    await cycles(driver);
  } finally {
    await dispose();
  }
}

/** Statement name → runs, summed over the sessions given. */
async function runsOf(sessions: Iterable<Queryable>): Promise<Map<string, number>> {
  const runs = new Map<string, number>();
  for (const session of sessions) {
    for (const [name, [generic, custom]] of await preparedOf(session)) {
      runs.set(name, (runs.get(name) ?? 0) + generic + custom);
    }
  }
  return runs;
}

it("on an app's pool the enqueue and the claim are parsed once per connection and then only bound", async () => {
  const pool = await oneConnection();
  await cyclesOn(pool);
  expect(await runsOf([pool])).toEqual(
    new Map([
      ['berth_enqueue', 5],
      ['berth_claim', 10],
    ]),
  );
});

it("on the driver's own pool the enqueue and the claim (with and without names) are prepared", async () => {
  const query = vi.spyOn(pg.Client.prototype, 'query');
  const { driver, dispose } = await openPgDriver();
  try {
    await cycles(driver);
    const sessions = new Set(query.mock.contexts as pg.Client[]);
    expect(await runsOf(sessions)).toEqual(
      new Map([
        ['berth_enqueue', 5],
        ['berth_claim', 10],
      ]),
    );
  } finally {
    await dispose();
  }
});

it('two drivers of different schemas on one pool prepare each their own statements', async () => {
  const pool = await oneConnection();
  await cyclesOn(pool);
  await cyclesOn(pool);
  const { rows } = await pool.query<{ n: string }>(
    "SELECT count(*) AS n FROM pg_prepared_statements WHERE name LIKE 'berth_%'",
  );
  expect(Number(rows[0]?.n)).toBe(4);
});

it('preparedStatements: false sends every statement as text, preparing nothing', async () => {
  const pool = await oneConnection();
  await cyclesOn(pool, { preparedStatements: false });
  expect(await preparedOf(pool)).toEqual(new Map());
});

/** A literal for EXECUTE's argument list (EXPLAIN takes no bound parameters). */
const literal = (client: pg.Client, value: unknown): string => {
  if (value === null) return 'NULL';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return client.escapeLiteral(`{${value.join(',')}}`);
  return client.escapeLiteral(String(value));
};

it('the generic plan of the prepared enqueue reads jobs only through indexes; the prepared claim only calls claim_jobs_v2', async () => {
  const { driver, schema, dispose } = await openPgDriver();
  const client = new pg.Client({ connectionString: await serverUrl('pg') });
  await client.connect();
  try {
    for (let batch = 0; batch < 5; batch += 1) {
      await driver.enqueueMany(
        Array.from({ length: 1_000 }, (_, n) => ({
          name: 'x',
          payload: n,
          idempotencyKey: `${batch}-${n}`,
        })),
      );
    }
    await client.query(`ANALYZE "${schema}".jobs`);
    await client.query('SET plan_cache_mode = force_generic_plan');
    const sql = statements(`"${schema}"`);
    const now = Date.now();
    const values = new Map<string, unknown[]>([
      [
        sql.enqueue.insert,
        [
          randomUUID(),
          randomUUID(),
          'x',
          'default',
          '{}',
          now,
          now,
          0,
          3,
          'k',
          null,
          null,
          null,
          null,
          null,
          'c',
          true,
        ],
      ],
    ]);
    const names = preparedNames(sql);
    expect([...names.keys()].sort()).toEqual([sql.enqueue.insert, sql.claim].sort());
    // claim_jobs_v2's own statements are checked as it plans them in claim-plan.test.ts.
    expect(sql.claim).toMatch(/^SELECT \* FROM "[^"]+"\.claim_jobs_v2\(/);
    for (const [text, name] of names) {
      if (text === sql.claim) continue;
      await client.query(`PREPARE ${name} AS ${text}`);
      const args = (values.get(text) ?? []).map((value) => literal(client, value)).join(', ');
      const { rows } = await client.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
        `EXPLAIN (FORMAT JSON) EXECUTE ${name}(${args})`,
      );
      const nodes = flatten(rows[0]?.['QUERY PLAN'][0]?.Plan ?? { 'Node Type': 'none' });
      const onJobs = nodes.filter((node) => node['Relation Name'] === 'jobs');
      expect(onJobs.length, name).toBeGreaterThan(0);
      expect(
        onJobs.filter((node) => node['Node Type'] === 'Seq Scan'),
        name,
      ).toEqual([]);
    }
  } finally {
    await client.end();
    await dispose();
  }
});
