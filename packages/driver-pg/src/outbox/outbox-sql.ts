/**
 * The outbox's statements, for a quoted schema. Its table lives in the app's database, beside
 * the app's own tables (the queue may be anywhere): staged rows wait there in staging order.
 */

/**
 * Taken before the DDL, in its transaction: processes creating the table at once take turns
 * (`CREATE … IF NOT EXISTS` alone races). $1 the lock class, $2 the schema name.
 */
export const OUTBOX_LOCK_SQL =
  'SELECT pg_catalog.pg_advisory_xact_lock($1, pg_catalog.hashtext($2))';

/** Idempotent: the schema, the table and its order index. */
export const OUTBOX_DDL = (schema: string): string => `
CREATE SCHEMA IF NOT EXISTS ${schema};
CREATE TABLE IF NOT EXISTS ${schema}.outbox (
  seq bigserial PRIMARY KEY,
  id uuid NOT NULL UNIQUE,
  kind text NOT NULL CHECK (kind IN ('job', 'event')),
  body jsonb NOT NULL,
  staged_at timestamptz NOT NULL DEFAULT now(),
  dead_at timestamptz,
  refusal jsonb
);
CREATE INDEX IF NOT EXISTS outbox_staged ON ${schema}.outbox (seq) WHERE dead_at IS NULL;
`;

/** The advisory-lock class of the outbox's migrate. */
export const OUTBOX_LOCK = 0x4f555458;

/** Stages one row; the NOTIFY is delivered when the transaction commits. $1 id, $2 kind, $3 body, $4 channel. */
export const STAGE_SQL = (schema: string): string => `
WITH staged AS (
  INSERT INTO ${schema}.outbox (id, kind, body) VALUES ($1::uuid, $2, $3::jsonb)
  RETURNING id
)
SELECT id, pg_catalog.pg_notify($4, '') FROM staged`;

/**
 * The probe of an executor that cannot say whether it is in a transaction: a savepoint can be
 * made only inside a transaction block (25P01 outside one), and is released at once.
 */
export const PROBE_SAVEPOINT = 'SAVEPOINT berth_outbox_stage';
export const RELEASE_PROBE = 'RELEASE SAVEPOINT berth_outbox_stage';
/** no_active_sql_transaction: the probe ran outside a transaction block. */
export const NO_ACTIVE_TRANSACTION = '25P01';

/** The oldest staged rows no other relay holds. $1 limit. */
export const TAKE_SQL = (schema: string): string => `
SELECT id, kind, body FROM ${schema}.outbox
WHERE dead_at IS NULL
ORDER BY seq
LIMIT $1
FOR UPDATE SKIP LOCKED`;

/** Relayed rows leave. $1 uuid[]. */
export const RELAYED_SQL = (schema: string): string =>
  `DELETE FROM ${schema}.outbox WHERE id = ANY($1::uuid[])`;

/** A refused row stays, dead, with the refusal. $1 id, $2 refusal. */
export const DEAD_SQL = (schema: string): string =>
  `UPDATE ${schema}.outbox SET dead_at = now(), refusal = $2::jsonb WHERE id = $1::uuid`;

/** The channel a stage notifies and relays listen on. */
export const outboxChannel = (schema: string): string => `${schema}_outbox`;

/** Counts for operators: rows waiting, rows dead, and when the oldest waiting row was staged. */
export const OUTBOX_STATS_SQL = (schema: string): string => `
SELECT count(*) FILTER (WHERE dead_at IS NULL) AS staged,
       count(*) FILTER (WHERE dead_at IS NOT NULL) AS dead,
       (extract(epoch FROM min(staged_at) FILTER (WHERE dead_at IS NULL)) * 1000)::float8 AS oldest
FROM ${schema}.outbox`;

/** Dead rows, oldest first. $1 limit. */
export const DEAD_ROWS_SQL = (schema: string): string => `
SELECT id, kind, body, refusal,
       (extract(epoch FROM staged_at) * 1000)::float8 AS staged_at,
       (extract(epoch FROM dead_at) * 1000)::float8 AS dead_at
FROM ${schema}.outbox WHERE dead_at IS NOT NULL ORDER BY seq LIMIT $1`;

/** Dead rows staged again (relayed in their place). $1 uuid[]. Answers the ids changed. */
export const RETRY_DEAD_SQL = (schema: string): string => `
UPDATE ${schema}.outbox SET dead_at = NULL, refusal = NULL
WHERE id = ANY($1::uuid[]) AND dead_at IS NOT NULL RETURNING id`;

/** Dead rows removed for good. $1 uuid[]. Answers the ids removed. */
export const DISCARD_DEAD_SQL = (schema: string): string =>
  `DELETE FROM ${schema}.outbox WHERE id = ANY($1::uuid[]) AND dead_at IS NOT NULL RETURNING id`;

/** Wakes the relays (dead rows staged again). $1 channel. */
export const NOTIFY_SQL = "SELECT pg_catalog.pg_notify($1, '')";
