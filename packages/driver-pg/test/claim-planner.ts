import { serverUrl } from '@berth/test-servers';
import pg from 'pg';
import { claimBodySql } from '../src/sql/claim-body.js';
import type { PlanNode } from './plan-nodes.js';

/** The claim's arguments, as the driver binds them. */
export interface ClaimArgs {
  readonly queues: readonly string[];
  readonly now: number;
  readonly limit: number;
  readonly workerId: string;
  readonly visibilityTimeoutMs: number;
  readonly names: readonly string[] | null;
}

export interface PlanRoot {
  readonly Plan: PlanNode;
}

const SIGNATURE = '(text[], bigint, integer, text, bigint, text[], json, text[])';

/**
 * A session that runs and EXPLAINs the claim as claim_jobs does: the function's own statement,
 * prepared, under the settings the function carries (read from pg_proc, so a setting dropped
 * from the migration drops here too). With plan_cache_mode = force_generic_plan among them, the
 * session makes one generic plan on the first run and keeps it, as a connection does.
 */
export async function openClaimPlanner(schema: string) {
  const client = new pg.Client({ connectionString: await serverUrl('pg') });
  await client.connect();
  const { rows } = await client.query<{ setting: string }>(
    'SELECT unnest(proconfig) AS setting FROM pg_proc WHERE oid = $1::regprocedure',
    [`"${schema}".claim_jobs${SIGNATURE}`],
  );
  for (const { setting } of rows) {
    const at = setting.indexOf('=');
    await client.query('SELECT set_config($1, $2, false)', [
      setting.slice(0, at),
      setting.slice(at + 1),
    ]);
  }
  const body = claimBodySql(`"${schema}"`);
  await client.query(`PREPARE claim_every${SIGNATURE} AS ${body.every}`);
  await client.query(`PREPARE claim_named${SIGNATURE} AS ${body.named}`);
  // EXPLAIN EXECUTE takes no bound parameters: the arguments go as literals.
  const array = (items: readonly string[]) => client.escapeLiteral(`{${items.join(',')}}`);
  const execute = (args: ClaimArgs) =>
    `EXECUTE ${args.names === null ? 'claim_every' : 'claim_named'}(${[
      array(args.queues),
      args.now,
      args.limit,
      client.escapeLiteral(args.workerId),
      args.visibilityTimeoutMs,
      "'{}'",
      "'{}'",
      args.names === null ? 'NULL' : array(args.names),
    ].join(', ')})`;
  const rolledBack = async <T>(work: () => Promise<T>): Promise<T> => {
    await client.query('BEGIN');
    try {
      return await work();
    } finally {
      await client.query('ROLLBACK');
    }
  };
  return {
    settings: rows.map((row) => row.setting),
    /** Runs the claim and rolls it back: the first run makes the plan the session keeps. */
    run: (args: ClaimArgs) => rolledBack(() => client.query(execute(args))),
    /** EXPLAIN (`options`, FORMAT JSON) of the claim, rolled back. */
    explain: (args: ClaimArgs, options = '') =>
      rolledBack(async () => {
        const { rows: plan } = await client.query<{ 'QUERY PLAN': PlanRoot[] }>(
          `EXPLAIN (${options}${options === '' ? '' : ', '}FORMAT JSON) ${execute(args)}`,
        );
        const root = plan[0]?.['QUERY PLAN'][0];
        if (root === undefined) throw new Error('no plan');
        return root;
      }),
    close: () => client.end(),
  };
}
