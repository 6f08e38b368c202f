import { configInvalid, driverNotMigrated, isBerthError } from '@berth/core/driver';
import pg from 'pg';
import { pgUnavailable } from './access-refused.js';
import { screenConnectionString } from './connection-string.js';
import { type PgPoolOptions, poolConfig } from './pool-options.js';
import type { Prepared, SendNamed } from './prepared.js';
import { LATEST_VERSION } from './sql/migrations/index.js';
import { RELEASE_SAVEPOINT, ROLLBACK_TO_SAVEPOINT, SAVEPOINT } from './sql/savepoint.js';

/**
 * undefined_table, invalid_schema_name: the schema was never migrated (or only partly);
 * undefined_function, undefined_column: it is older than this driver (a function or column a
 * later migration adds).
 */
const NOT_MIGRATED_STATES = new Set(['42P01', '3F000', '42883', '42703']);

/** One answer of a statement: pg's `QueryResult` fits it. */
export interface PgResult {
  readonly rows: readonly unknown[];
}

/**
 * What the driver sends statements through: a `pg` Client, Pool, PoolClient, or an app's open
 * transaction (anything with pg's `query(text, values)`). Each driver call is one statement,
 * so a pool is as good as one connection.
 */
export interface PgExecutor {
  query(text: string, values?: unknown[]): Promise<PgResult>;
}

/** Where the driver's connections come from. At most one of the three. */
export interface PgConnectionOptions {
  /** An app's pool: used, never ended. Wake listens on a connection of its own config. */
  readonly pool?: pg.Pool;
  /** The driver opens (and on close ends) its own pool; undefined (an unset env var) is absent. */
  readonly connectionString?: string | undefined;
  /** An app's client, pool or transaction: used, never closed; no wake subscription. */
  readonly executor?: PgExecutor;
  /**
   * Size, keepalive and timeouts of the pool the driver opens itself (from `connectionString` or
   * the `PG*` variables); every member has a production default. Not with `pool` or `executor`:
   * configure those where you create them.
   */
  readonly poolOptions?: PgPoolOptions;
}

/** A pg.Pool, or anything shaped like one (another copy of pg's); not an options object. */
export const isPgPool = (value: unknown): value is pg.Pool =>
  value instanceof pg.Pool ||
  (typeof value === 'object' &&
    value !== null &&
    typeof (value as Partial<pg.Pool>).connect === 'function' &&
    typeof (value as Partial<pg.Pool>).query === 'function');

/** The connections a driver works through, and what it must close. */
export interface Connections {
  readonly executor: PgExecutor;
  /** The pool behind the executor, for one-connection work (migrate's session lock). */
  readonly pool: pg.Pool | undefined;
  /** How the wake listener opens its own connection; absent when the app gave an executor. */
  readonly listenConfig: pg.ClientConfig | undefined;
  /** Sends a prepared statement through the pool; absent when the app gave an executor. */
  readonly sendNamed: SendNamed | undefined;
  /** Ends what the driver opened. */
  readonly close: () => Promise<void>;
}

export function openConnections(options: PgConnectionOptions): Connections {
  if (options.connectionString !== undefined) screenConnectionString(options.connectionString);
  const given = [options.pool, options.connectionString, options.executor].filter(
    (source) => source !== undefined,
  );
  if (given.length > 1) {
    throw configInvalid({
      option: 'pool',
      reason: 'was given with connectionString or executor; they exclude each other',
      allowed:
        'names where connections come from: pass exactly one of pool (your pg.Pool), connectionString (the driver opens its own pool) or executor (your client or transaction)',
      example:
        'createPgDriver({ pool: new pg.Pool({ connectionString: process.env.DATABASE_URL }) })',
    });
  }
  if (options.poolOptions !== undefined && (options.pool ?? options.executor) !== undefined) {
    throw configInvalid({
      option: 'poolOptions',
      reason: `was given with ${options.pool === undefined ? 'executor' : 'pool'}, which the app configures itself`,
      allowed:
        'applies only to the pool the driver opens from connectionString: set max, keepalive and timeouts on your own pg.Pool instead, or pass connectionString with poolOptions',
      example: 'createPgDriver({ connectionString, poolOptions: { max: 20 } })',
    });
  }
  if (options.pool !== undefined && !isPgPool(options.pool)) {
    throw configInvalid({
      option: 'pool',
      reason: 'is not a pg.Pool (pool settings such as max go in poolOptions)',
      allowed:
        'must be your own pg.Pool instance; to size the pool the driver opens, use poolOptions',
      example:
        'createPgDriver({ pool: new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 }) })',
    });
  }
  if (options.executor !== undefined) {
    return {
      executor: options.executor,
      pool: undefined,
      listenConfig: undefined,
      sendNamed: undefined,
      close: async () => {},
    };
  }
  if (options.pool !== undefined) {
    const pool = options.pool;
    return {
      executor: pool,
      pool,
      listenConfig: { ...pool.options },
      sendNamed: (query) => pool.query(query),
      close: async () => {},
    };
  }
  const config: pg.PoolConfig = {
    ...poolConfig(options.poolOptions),
    ...(options.connectionString === undefined
      ? {}
      : { connectionString: options.connectionString }),
  };
  const pool = new pg.Pool(config);
  // An idle connection the server dropped is reported here; the pool replaces it on next use.
  pool.on('error', () => {});
  let ended = false;
  return {
    executor: pool,
    pool,
    listenConfig: { ...config },
    sendNamed: (query) => pool.query(query),
    close: async () => {
      if (ended) return;
      ended = true;
      await pool.end();
    },
  };
}

/**
 * Sends statements for one driver, so that every failure leaves as a BerthError: a missing table
 * or schema as DRIVER_NOT_MIGRATED, anything else as DRIVER_UNAVAILABLE.
 */
export interface Db {
  rows<R>(operation: string, text: string, values: unknown[]): Promise<R[]>;
  /**
   * `rows` for a statement that can meet a unique violation: on an app's executor it runs under
   * a savepoint, so the violation rolls back only this statement and the app's transaction
   * stays usable. Outside a transaction (the savepoint is refused) it runs as `rows`.
   */
  guarded<R>(operation: string, text: string, values: unknown[]): Promise<R[]>;
  /**
   * Fails every statement still waiting, with `error`. A pool that was ended never hands a
   * connection to the statements queued for one, so close calls this once the pool has ended.
   */
  abandon(error: Error): void;
}

/** no_active_sql_transaction: SAVEPOINT outside a transaction block. */
const NO_TRANSACTION = '25P01';

/**
 * `schema` is the plain schema name, named by DRIVER_NOT_MIGRATED. `appExecutor`: statements go
 * through an app's executor, which may hold an open transaction. `prepared`: the statements sent
 * by name instead of as text.
 */
export function createDb(
  executor: PgExecutor,
  schema: string,
  appExecutor = false,
  prepared?: Prepared,
): Db {
  const waiting = new Set<(error: Error) => void>();
  const query = (text: string, values: unknown[]): Promise<PgResult> => {
    const name = prepared?.names.get(text);
    return name === undefined || prepared === undefined
      ? executor.query(text, values)
      : prepared.send({ name, text, values });
  };
  const send = (text: string, values: unknown[]) =>
    new Promise<PgResult>((resolve, reject) => {
      waiting.add(reject);
      query(text, values)
        .then(resolve, reject)
        .finally(() => waiting.delete(reject));
    });
  const fail = (operation: string, error: unknown): never => {
    if (isBerthError(error)) throw error;
    if (NOT_MIGRATED_STATES.has(sqlState(error) ?? '')) {
      throw driverNotMigrated({ driver: 'pg', schema, required: LATEST_VERSION, cause: error });
    }
    throw pgUnavailable({ operation, cause: error, schema });
  };
  async function rows<R>(operation: string, text: string, values: unknown[]): Promise<R[]> {
    try {
      return (await send(text, values)).rows as R[];
    } catch (error) {
      return fail(operation, error);
    }
  }
  return {
    rows,
    async guarded<R>(operation: string, text: string, values: unknown[]): Promise<R[]> {
      if (!appExecutor) return rows<R>(operation, text, values);
      try {
        await send(SAVEPOINT, []);
      } catch (error) {
        if (sqlState(error) === NO_TRANSACTION) return rows<R>(operation, text, values);
        return fail(operation, error);
      }
      let answer: R[];
      try {
        answer = (await send(text, values)).rows as R[];
      } catch (error) {
        // The statement's own error is the answer; a failed rollback leaves the app's
        // transaction as the backend left it.
        await send(ROLLBACK_TO_SAVEPOINT, [])
          .then(() => send(RELEASE_SAVEPOINT, []))
          .catch(() => {});
        return fail(operation, error);
      }
      await send(RELEASE_SAVEPOINT, []).catch((error: unknown) => fail(operation, error));
      return answer;
    },
    abandon(error) {
      for (const reject of waiting) reject(error);
      waiting.clear();
    },
  };
}

/** The SQLSTATE of a pg error, when it is one. */
export function sqlState(error: unknown): string | undefined {
  const original = isBerthError(error) ? error.cause : error;
  if (original === null || typeof original !== 'object' || !('code' in original)) return undefined;
  return typeof original.code === 'string' ? original.code : undefined;
}
