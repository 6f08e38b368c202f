import { serverUrl } from '@berth/test-servers';
import pg from 'pg';
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

/** claim_jobs_v2's two statements (every name; by name), as its body runs them. */
const BODY = /\bRETURN QUERY ([^;]+);\s+ELSE\s+RETURN QUERY ([^;]+);\s+END IF;/;

/**
 * A session that runs and EXPLAINs the claim as claim_jobs_v2 does: the function's own statements,
 * prepared, under the settings the function carries (both read from pg_proc, so a statement or
 * setting a migration changes changes here too). With plan_cache_mode = force_generic_plan among
 * them, the session makes one generic plan on the first run and keeps it, as a connection does.
 */
export async function openClaimPlanner(schema: string) {
  const client = new pg.Client({ connectionString: await serverUrl('pg') });
  await client.connect();
  const { rows } = await client.query<{ settings: string[]; body: string }>(
    'SELECT proconfig AS settings, prosrc AS body FROM pg_proc WHERE oid = $1::regprocedure',
    [`"${schema}".claim_jobs_v2${SIGNATURE}`],
  );
  const settings = rows[0]?.settings ?? [];
  const [, every, named] = BODY.exec(rows[0]?.body ?? '') ?? [];
  if (every === undefined || named === undefined) {
    throw new Error(`claim_jobs_v2's body no longer reads IF p_names IS NULL THEN RETURN QUERY …`);
  }
  for (const setting of settings) {
    const at = setting.indexOf('=');
    await client.query('SELECT set_config($1, $2, false)', [
      setting.slice(0, at),
      setting.slice(at + 1),
    ]);
  }
  await client.query(`PREPARE claim_every${SIGNATURE} AS ${every}`);
  await client.query(`PREPARE claim_named${SIGNATURE} AS ${named}`);
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
    settings,
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
