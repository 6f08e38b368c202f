import { randomUUID } from 'node:crypto';
import { type BackfillRun, createClient } from '@berth/core';
import { createPgDriver } from '@berth/driver-pg';
import pg from 'pg';
import { killableWorkers } from '../child/killable-workers.ts';
import { chaosBackfill } from './definition.ts';
import { CREATE_ITEMS, FILL_ITEMS, TALLY } from './rows-sql.ts';

const WORKER = new URL('../child/backfill-main.ts', import.meta.url);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface BackfillKillOptions {
  readonly pgUrl: string;
  /** Items in the collection. */
  readonly rows: number;
  readonly batch: number;
  /** The run's throttle. */
  readonly rowsPerSecond: number;
  /** Work each pass does inside its transaction, ms (see ChaosBackfillOptions.workMs). */
  readonly workMs: number;
  /** Worker processes alive at once. */
  readonly workers: number;
  /** SIGKILLs, spread over the run: one each time another share of the rows is done. */
  readonly kills: number;
  /** Gives up past this, ms. */
  readonly deadlineMs: number;
}

export interface BackfillKillReport {
  readonly run: BackfillRun | undefined;
  readonly kills: number;
  readonly missing: number;
  readonly twice: number;
  readonly total: number;
  readonly elapsedMs: number;
}

/**
 * A backfill over a PostgreSQL table of `rows` items, driven by worker processes of which one
 * is SIGKILLed (and replaced) each time another 1/(kills+1) of the rows is committed. Answers
 * the run as the ledger has it and the test's own tally: items processed 0 times, or twice.
 */
export async function runBackfillKill(options: BackfillKillOptions): Promise<BackfillKillReport> {
  const schema = `chaos_backfill_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const pool = new pg.Pool({ connectionString: options.pgUrl, max: 4 });
  const driver = createPgDriver({ pool, schema });
  const workers = killableWorkers(WORKER, {
    pgUrl: options.pgUrl,
    schema,
    batch: options.batch,
    rowsPerSecond: options.rowsPerSecond,
    workMs: options.workMs,
  });
  const began = performance.now();
  try {
    await pool.query(`CREATE SCHEMA "${schema}"`);
    await driver.migrate();
    await pool.query(CREATE_ITEMS(schema));
    await pool.query(FILL_ITEMS(schema), [options.rows]);
    await pool.query(`ANALYZE "${schema}".items`);
    const client = createClient({ driver });
    const backfill = chaosBackfill({ pool, schema, ...options });
    const { runId } = await client.backfills.start(backfill);
    for (let n = 0; n < options.workers; n += 1) workers.spawn();
    let kills = 0;
    let run: BackfillRun | undefined;
    const deadline = Date.now() + options.deadlineMs;
    for (;;) {
      run = await client.backfills.get(runId);
      if (run === undefined || run.status !== 'running' || Date.now() > deadline) break;
      const share = options.rows / (options.kills + 1);
      if (kills < options.kills && run.rowsDone >= share * (kills + 1)) {
        // Kill the process that holds the runner job (its workerId names its pid): the one
        // whose pass is in flight.
        const holder = (await driver.get(run.jobId))?.claimedBy;
        const victim = [...workers.alive].find((worker) => holder === `backfill-${worker.pid}`);
        if (victim === undefined) {
          await sleep(25);
          continue;
        }
        victim.kill('SIGKILL');
        kills += 1;
        workers.spawn();
      }
      await sleep(25);
    }
    const tally = (
      await pool.query<{ missing: number; twice: number; total: number }>(TALLY(schema))
    ).rows[0];
    return {
      run,
      kills,
      missing: tally?.missing ?? -1,
      twice: tally?.twice ?? -1,
      total: tally?.total ?? -1,
      elapsedMs: Math.round(performance.now() - began),
    };
  } finally {
    workers.killAll();
    await driver.close().catch(() => {});
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
    await pool.end();
  }
}
