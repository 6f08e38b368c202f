import { isBerthError } from '@berth/core/driver';
import type pg from 'pg';
import { pgUnavailable } from './access-refused.js';
import type { PgExecutor } from './executor.js';
import { LATEST_VERSION, MIGRATIONS } from './sql/migrations/index.js';
import { DEFAULT_SCHEMA, quoteSchema } from './sql/schema.js';

/** What `migrate` did: the version the schema is at now, and the versions this call applied. */
export interface MigrateResult {
  readonly version: number;
  readonly applied: readonly number[];
}

export interface MigrateOptions {
  /** A pool (a connection is taken for the run) or one connection, possibly in a transaction. */
  readonly executor: PgExecutor | pg.Pool;
  readonly schema?: string;
}

/** The advisory-lock class of migrate; the second key is the schema name's hash. */
const MIGRATE_LOCK = 0x42455254;

const hasConnect = (executor: PgExecutor | pg.Pool): executor is pg.Pool =>
  typeof (executor as Partial<pg.Pool>).connect === 'function' &&
  typeof (executor as Partial<pg.Pool>).totalCount === 'number';

/**
 * Brings the schema to the latest version. Safe when many processes run it at once: they take
 * turns under a session advisory lock keyed on the schema, and each reads the applied versions
 * only while holding it. Every migration is idempotent and runs as one implicit transaction.
 */
export async function migrate(options: MigrateOptions): Promise<MigrateResult> {
  const schema = options.schema ?? DEFAULT_SCHEMA;
  const s = quoteSchema(schema);
  const pool = hasConnect(options.executor) ? options.executor : undefined;
  const leased = pool === undefined ? undefined : await connect(pool, schema);
  const session: PgExecutor = leased ?? options.executor;
  let failure: unknown;
  try {
    await session.query('SELECT pg_advisory_lock($1, hashtext($2))', [MIGRATE_LOCK, schema]);
    try {
      await session.query(
        `CREATE SCHEMA IF NOT EXISTS ${s};
         CREATE TABLE IF NOT EXISTS ${s}.migrations (
           version integer PRIMARY KEY,
           applied_at timestamptz NOT NULL DEFAULT now()
         );`,
      );
      const { rows } = await session.query(`SELECT version FROM ${s}.migrations`, []);
      const done = new Set(rows.map((row) => Number((row as { version: number }).version)));
      const applied: number[] = [];
      for (const migration of MIGRATIONS) {
        if (done.has(migration.version)) continue;
        await session.query(migration.text(s));
        applied.push(migration.version);
      }
      return { version: Math.max(LATEST_VERSION, ...done), applied };
    } finally {
      await session
        .query('SELECT pg_advisory_unlock($1, hashtext($2))', [MIGRATE_LOCK, schema])
        .catch(() => {});
    }
  } catch (error) {
    failure = error;
    if (isBerthError(error)) throw error;
    throw pgUnavailable({ operation: 'migrate', cause: error, schema });
  } finally {
    // A connection that failed mid-run is dropped: that also frees its session lock.
    leased?.release(failure instanceof Error ? failure : undefined);
  }
}

async function connect(pool: pg.Pool, schema: string): Promise<pg.PoolClient> {
  try {
    return await pool.connect();
  } catch (error) {
    throw pgUnavailable({ operation: 'migrate', cause: error, schema });
  }
}
