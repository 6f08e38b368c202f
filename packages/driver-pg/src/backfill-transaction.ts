import { type BackfillTransaction, configInvalid, driverUnavailable } from '@berth/core/driver';
import type pg from 'pg';
import { pgUnavailable } from './access-refused.js';
import { isPgPool } from './executor.js';
import { createPgDriver } from './pg-driver.js';
import { DEFAULT_SCHEMA, quoteSchema } from './sql/schema.js';

export interface PgBackfillTransactionOptions {
  /** The pool of the database that holds both the app's tables and Berth's schema. */
  readonly pool: pg.Pool;
  /** The schema Berth's tables live in. Default `berth`. */
  readonly schema?: string;
}

/**
 * Transactions in which a pass's writes and its cursor advance commit together or not at all:
 * a runner that dies between them leaves neither, so the pass runs again from the same cursor.
 */
export function pgBackfillTransaction(
  options: PgBackfillTransactionOptions,
): BackfillTransaction<pg.PoolClient> {
  const { pool } = options;
  const schema = options.schema ?? DEFAULT_SCHEMA;
  quoteSchema(schema);
  if (!isPgPool(pool)) {
    throw configInvalid({
      option: 'pool',
      reason: 'is not a pg.Pool',
      allowed: 'must be the pg.Pool of the database that holds your tables and the berth schema',
      example: 'pgBackfillTransaction({ pool: new pg.Pool({ connectionString }) })',
    });
  }
  const failed = (operation: string, cause: unknown) => pgUnavailable({ operation, cause, schema });

  return {
    async run(work) {
      const client = await pool.connect().catch((error: unknown) => {
        throw failed('open a backfill transaction', error);
      });
      // A driver over this client alone: every ledger call is screened by core and goes into
      // this transaction; closed at the end, so a ledger kept past `run` answers DRIVER_CLOSED
      // instead of writing into whatever the pooled connection does next.
      const driver = createPgDriver({ executor: client, schema });
      let broken: Error | undefined;
      try {
        await client.query('BEGIN').catch((error: unknown) => {
          broken = error instanceof Error ? error : undefined;
          throw failed('begin a backfill transaction', error);
        });
        const answer = await work(client, driver.backfills).catch(async (error: unknown) => {
          await client.query('ROLLBACK').catch((rollback: unknown) => {
            broken = rollback instanceof Error ? rollback : new Error(String(rollback));
          });
          throw error;
        });
        const committed = await client.query('COMMIT').catch((error: unknown) => {
          broken = error instanceof Error ? error : undefined;
          throw failed('commit a backfill transaction', error);
        });
        // COMMIT of a transaction an earlier failed statement aborted rolls it back instead.
        if (committed.command === 'ROLLBACK') {
          throw driverUnavailable({
            driver: 'pg',
            operation: 'commit a backfill transaction',
            detail:
              'a statement of the transaction failed earlier, so COMMIT rolled it back: neither the pass nor its ledger commit landed',
            fix: 'let the failing statement throw out of the work (or roll back to a savepoint of your own) and run the pass again',
          });
        }
        return answer;
      } finally {
        await driver.close();
        client.release(broken);
      }
    },
  };
}
