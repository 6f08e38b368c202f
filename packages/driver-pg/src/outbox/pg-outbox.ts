import { randomUUID } from 'node:crypto';
import {
  BerthError,
  configInvalid,
  type DeadOutboxRow,
  type EnqueueOptions,
  type JobContract,
  type Json,
  type OutboxAdmin,
  type OutboxBatch,
  type OutboxStore,
  type StagedRow,
  stagedJobRequest,
} from '@berth/core/driver';
import pg from 'pg';
import { pgUnavailable } from '../access-refused.js';
import { screenConnectionString } from '../connection-string.js';
import type { PgExecutor } from '../executor.js';
import { quoteSchema } from '../sql/schema.js';
import {
  DEAD_ROWS_SQL,
  DEAD_SQL,
  DISCARD_DEAD_SQL,
  NO_ACTIVE_TRANSACTION,
  NOTIFY_SQL,
  OUTBOX_DDL,
  OUTBOX_LOCK,
  OUTBOX_LOCK_SQL,
  OUTBOX_STATS_SQL,
  outboxChannel,
  PROBE_SAVEPOINT,
  RELAYED_SQL,
  RELEASE_PROBE,
  RETRY_DEAD_SQL,
  STAGE_SQL,
  TAKE_SQL,
} from './outbox-sql.js';
import { listenForStaged } from './staged-listener.js';

export interface PgOutboxOptions {
  /** The app's pool (used, never ended), or a connection string the outbox opens a pool for. */
  readonly pool?: pg.Pool;
  readonly connectionString?: string;
  /** The schema of the outbox table. Default `berth_outbox`. */
  readonly schema?: string;
}

export interface PgOutbox extends OutboxAdmin {
  /** Creates the outbox table when missing (idempotent). */
  migrate(): Promise<void>;
  /**
   * Stages `job` in the app's open transaction `tx`: it becomes a job (with the id answered now)
   * when `tx` commits, and never when it rolls back. Outside a transaction: OUTBOX_NO_TX.
   */
  stage<TInput, TPayload, TResult>(
    tx: PgExecutor,
    job: JobContract<TInput, TPayload, TResult>,
    payload: TInput,
    options?: EnqueueOptions,
  ): Promise<{ readonly id: string }>;
  /** Stages an event publish in `tx`, as `stage` stages a job. */
  publish(
    tx: PgExecutor,
    name: string,
    payload: Json,
    options?: { readonly ttl?: number },
  ): Promise<{ readonly id: string }>;
  /** What `createOutboxRelay` takes rows from. */
  readonly store: OutboxStore;
  /** Ends the pool the outbox opened (never the app's). */
  close(): Promise<void>;
}

/**
 * The transactional outbox on PostgreSQL: rows staged in the app's own transactions, relayed into
 * any queue (`createOutboxRelay` from `@berth/core`). The table lives in the app's database; the
 * queue may be Redis, NATS or PostgreSQL elsewhere.
 */
export function createPgOutbox(options: PgOutboxOptions): PgOutbox {
  const schemaName = options.schema ?? 'berth_outbox';
  const schema = quoteSchema(schemaName);
  if (options.pool !== undefined && options.connectionString !== undefined) {
    throw configInvalid({
      option: 'pool',
      reason: 'and connectionString were both given',
      allowed:
        'is your own pg.Pool; give it or connectionString (the outbox opens a pool), not both',
      example: 'createPgOutbox({ pool: appPool })',
    });
  }
  const owned = options.pool === undefined;
  if (owned) screenConnectionString(options.connectionString);
  const pool = options.pool ?? new pg.Pool({ connectionString: options.connectionString });
  // An idle connection of its own pool that breaks is replaced at the next use, not a crash.
  if (owned) pool.on('error', () => {});
  const channel = outboxChannel(schemaName);
  const table = `${schemaName}.outbox`;

  /** One statement on the pool; a backend failure leaves as DRIVER_UNAVAILABLE. */
  const run = (operation: string, text: string, values: unknown[]) =>
    pool.query(text, values).catch((error: unknown) => {
      throw pgUnavailable({ operation, cause: error, schema: schemaName });
    });

  const noTx = (kind: StagedRow['kind']) =>
    new BerthError({
      code: 'OUTBOX_NO_TX',
      detail: `the ${kind} was not staged: the executor is not inside a transaction (BEGIN)`,
      meta: { table },
    });

  /**
   * Whether `tx` is inside a transaction: a pg Client says so itself (its last ReadyForQuery);
   * any other executor is asked with a savepoint, which only a transaction block can make.
   */
  const screenTransaction = async (tx: PgExecutor, kind: StagedRow['kind']): Promise<void> => {
    const status = (tx as { getTransactionStatus?: () => string | null }).getTransactionStatus?.();
    if (status === 'T' || status === 'E') return;
    if (status === 'I') throw noTx(kind);
    try {
      await tx.query(PROBE_SAVEPOINT);
    } catch (error) {
      if ((error as { code?: unknown }).code === NO_ACTIVE_TRANSACTION) throw noTx(kind);
      throw pgUnavailable({ operation: 'outbox stage', cause: error, schema: schemaName });
    }
    await tx.query(RELEASE_PROBE).catch((error: unknown) => {
      throw pgUnavailable({ operation: 'outbox stage', cause: error, schema: schemaName });
    });
  };

  const insert = async (tx: PgExecutor, id: string, kind: StagedRow['kind'], body: Json) => {
    await screenTransaction(tx, kind);
    try {
      await tx.query(STAGE_SQL(schema), [id, kind, JSON.stringify(body), channel]);
    } catch (error) {
      throw pgUnavailable({ operation: 'outbox stage', cause: error, schema: schemaName });
    }
    return { id };
  };

  const store: OutboxStore = {
    async take(limit) {
      const client = await pool.connect().catch((error: unknown) => {
        throw pgUnavailable({ operation: 'outbox take', cause: error, schema: schemaName });
      });
      let released = false;
      const release = (error?: Error) => {
        if (released) return;
        released = true;
        client.release(error);
      };
      try {
        await client.query('BEGIN');
        const { rows } = await client.query(TAKE_SQL(schema), [limit]);
        if (rows.length === 0) {
          await client.query('COMMIT');
          release();
          return undefined;
        }
        return batchOf(client, rows as RowOf[], release);
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        release(error instanceof Error ? error : undefined);
        throw pgUnavailable({ operation: 'outbox take', cause: error, schema: schemaName });
      }
    },
    onStaged: (listener) => listenForStaged(pool, channel, listener),
  };

  const batchOf = (
    client: pg.PoolClient,
    rows: readonly RowOf[],
    release: (error?: Error) => void,
  ): OutboxBatch => ({
    rows: rows.map(stagedRow),
    async finish(outcome) {
      try {
        if (outcome.relayed.length > 0) {
          await client.query(RELAYED_SQL(schema), [outcome.relayed]);
        }
        for (const dead of outcome.dead) {
          await client.query(DEAD_SQL(schema), [dead.id, JSON.stringify(dead.error)]);
        }
        await client.query('COMMIT');
        release();
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        release(error instanceof Error ? error : undefined);
        throw pgUnavailable({ operation: 'outbox finish', cause: error, schema: schemaName });
      }
    },
    async abandon() {
      await client.query('ROLLBACK').catch(() => {});
      release();
    },
  });

  return {
    async migrate() {
      const client = await pool.connect().catch((error: unknown) => {
        throw pgUnavailable({ operation: 'outbox migrate', cause: error, schema: schemaName });
      });
      try {
        await client.query('BEGIN');
        await client.query(OUTBOX_LOCK_SQL, [OUTBOX_LOCK, schemaName]);
        await client.query(OUTBOX_DDL(schema));
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw pgUnavailable({ operation: 'outbox migrate', cause: error, schema: schemaName });
      } finally {
        client.release();
      }
    },
    async stage(tx, job, payload, stageOptions) {
      const request = await stagedJobRequest(job, payload, stageOptions);
      return insert(tx, request.id, 'job', request as unknown as Json);
    },
    async publish(tx, name, payload, publishOptions) {
      const body = {
        name,
        payload,
        ...(publishOptions?.ttl === undefined ? {} : { ttl: publishOptions.ttl }),
      };
      return insert(tx, randomUUID(), 'event', body as Json);
    },
    store,
    async stats() {
      const { rows } = await run('outbox stats', OUTBOX_STATS_SQL(schema), []);
      const row = rows[0] as { staged: string; dead: string; oldest: number | null } | undefined;
      return {
        staged: Number(row?.staged ?? 0),
        dead: Number(row?.dead ?? 0),
        ...(row?.oldest === null || row?.oldest === undefined
          ? {}
          : { oldestStagedAt: Math.round(row.oldest) }),
      };
    },
    async dead(deadOptions) {
      const limit = deadOptions?.limit ?? 100;
      const { rows } = await run('outbox dead', DEAD_ROWS_SQL(schema), [limit]);
      return (
        rows as (RowOf & {
          refusal: DeadOutboxRow['refusal'];
          staged_at: number;
          dead_at: number;
        })[]
      ).map((row) => ({
        row: stagedRow(row),
        refusal: row.refusal,
        stagedAt: Math.round(row.staged_at),
        deadAt: Math.round(row.dead_at),
      }));
    },
    async retry(ids) {
      const { rows } = await run('outbox retry', RETRY_DEAD_SQL(schema), [ids]);
      if (rows.length > 0) await pool.query(NOTIFY_SQL, [channel]).catch(() => {});
      return (rows as { id: string }[]).map((row) => row.id);
    },
    async discard(ids) {
      const { rows } = await run('outbox discard', DISCARD_DEAD_SQL(schema), [ids]);
      return (rows as { id: string }[]).map((row) => row.id);
    },
    async close() {
      if (owned) await pool.end();
    },
  };
}

interface RowOf {
  readonly id: string;
  readonly kind: StagedRow['kind'];
  readonly body: Record<string, unknown>;
}

function stagedRow(row: RowOf): StagedRow {
  if (row.kind === 'job') {
    return { kind: 'job', id: row.id, request: row.body as never };
  }
  const { name, payload, ttl } = row.body as { name: string; payload: Json; ttl?: number };
  return { kind: 'event', id: row.id, name, payload, ...(ttl === undefined ? {} : { ttl }) };
}
