import { LIVE } from './columns.js';
import { INSERT_COLUMNS } from './enqueue.js';

/** The statement of `enqueue` with `advanceMark`, for the quoted schema `s`. */
export function enqueueAdvancingSql(s: string) {
  return {
    /**
     * The insert and the mark in ONE statement, so one transaction: both land or neither.
     * `cur` locks the mark's row; a racing statement waits on it and then reads the value the
     * winner committed (READ COMMITTED re-reads a locked row), so at most one of them finds the
     * mark below. Below (or unset): the insert runs as `enqueue.insert` does and `found` says
     * what answered (the new row, the job the id made, 'taken', or the live key holder in this
     * statement's snapshot); when that is a job (a key holder only under `dedupe`) the mark
     * rises. At or above: one 'passed' row and nothing written. No row at all: a writer of the
     * id committed after this statement's snapshot; sent again, the next one sees it.
     * $1 id, $2 run_id, $3 name, $4 queue, $5 payload, $6 run_at, $7 now, $8 priority,
     * $9 max_attempts, $10 key, $11 concurrency_key, $12 tenant_id, $13 traceparent,
     * $14 enqueued_by, $15 parent_id, $16 channel, $17 mark name, $18 mark value, $19 dedupe a
     * key holder.
     */
    insert: `
      WITH cur AS (
        SELECT value FROM ${s}.marks WHERE name = $17 FOR UPDATE
      ), go AS (
        SELECT NOT EXISTS (SELECT 1 FROM cur WHERE value >= $18::bigint) AS below
      ), ins AS (
        INSERT INTO ${s}.jobs (${INSERT_COLUMNS})
        SELECT $1, $2, $3, $4, $5::json,
          CASE WHEN $6::bigint > $7::bigint THEN 'delayed' ELSE 'ready' END,
          $8, 0, $9, $6, $7, $7, 0, $10, $11, $12, $13, $14, $15
        WHERE (SELECT below FROM go)
        ON CONFLICT DO NOTHING
        RETURNING id, run_id, queue
      ), woke AS (SELECT pg_notify($16, queue) FROM ins),
      found AS (
        SELECT id, run_id, 'inserted' AS hit FROM ins
        UNION ALL
        SELECT d.id, d.run_id,
          CASE WHEN coalesce(d.tenant_id, '') = coalesce($12::text, '') THEN 'id' ELSE 'taken' END
        FROM ${s}.jobs d
        WHERE (SELECT below FROM go) AND d.id = $1 AND NOT EXISTS (SELECT 1 FROM ins)
        UNION ALL
        SELECT h.id, h.run_id, 'key' FROM ${s}.jobs h
        WHERE (SELECT below FROM go) AND $10::text IS NOT NULL AND h.name = $3
          AND h.idempotency_key = $10::text
          AND coalesce(h.tenant_id, '') = coalesce($12::text, '') AND h.state IN ${LIVE}
          AND NOT EXISTS (SELECT 1 FROM ins)
      ), landed AS (
        SELECT 1 FROM found WHERE hit IN ('inserted', 'id')
        UNION ALL
        SELECT 1 FROM found WHERE hit = 'key' AND $19::bool
          AND NOT EXISTS (SELECT 1 FROM found g WHERE g.hit IN ('id', 'taken'))
      ), moved AS (
        INSERT INTO ${s}.marks AS m (name, value)
        SELECT $17, $18::bigint WHERE EXISTS (SELECT 1 FROM landed)
        ON CONFLICT (name) DO UPDATE SET value = excluded.value WHERE m.value < excluded.value
        RETURNING 1
      )
      SELECT id, run_id, hit, (SELECT count(*) FROM woke) AS woke,
        (SELECT count(*) FROM moved) AS moved
      FROM found
      UNION ALL
      SELECT NULL, NULL, 'passed', 0, 0 WHERE NOT (SELECT below FROM go)`,
  };
}
