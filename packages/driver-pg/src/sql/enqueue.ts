import { LIVE } from './columns.js';

/** The columns every enqueue writes, in the order its VALUES or SELECT gives them. */
export const INSERT_COLUMNS =
  'id, run_id, name, queue, payload, state, priority, attempts, max_attempts, run_at, ' +
  'created_at, updated_at, claim, idempotency_key, concurrency_key, tenant_id, traceparent, ' +
  'enqueued_by, parent_id';

/** The statements of `enqueue` for the quoted schema `s` (`enqueueMany`: enqueue-many.ts). */
export function enqueueSql(s: string) {
  return {
    /**
     * One insert, in ONE statement that also says why it was refused: the job a caller id
     * already made (`hit` 'id'; 'taken' when another tenant's row holds the id), or the live
     * holder of the key as this statement saw it (`hit` 'key'). Wakes the queue when it lands. $1 id, $2 run_id, $3 name, $4 queue, $5 payload,
     * $6 run_at, $7 now, $8 priority, $9 max_attempts, $10 key, $11 concurrency_key,
     * $12 tenant_id, $13 traceparent, $14 enqueued_by, $15 parent_id, $16 channel,
     * $17 caller id given.
     */
    insert: `
      WITH ins AS (
        INSERT INTO ${s}.jobs (${INSERT_COLUMNS})
        VALUES ($1, $2, $3, $4, $5::json,
          CASE WHEN $6::bigint > $7::bigint THEN 'delayed' ELSE 'ready' END,
          $8, 0, $9, $6, $7, $7, 0, $10, $11, $12, $13, $14, $15)
        ON CONFLICT DO NOTHING
        RETURNING id, run_id, queue
      ), woke AS (SELECT pg_notify($16, queue) FROM ins)
      SELECT id, run_id, 'inserted' AS hit, (SELECT count(*) FROM woke) AS woke FROM ins
      UNION ALL
      SELECT d.id, d.run_id,
        CASE WHEN coalesce(d.tenant_id, '') = coalesce($12::text, '') THEN 'id' ELSE 'taken' END, 0
      FROM ${s}.jobs d
      WHERE $17::bool AND d.id = $1 AND NOT EXISTS (SELECT 1 FROM ins)
      UNION ALL
      SELECT h.id, h.run_id, 'key', 0 FROM ${s}.jobs h
      WHERE $10::text IS NOT NULL AND h.name = $3 AND h.idempotency_key = $10::text
        AND coalesce(h.tenant_id, '') = coalesce($12::text, '') AND h.state IN ${LIVE}
        AND NOT EXISTS (SELECT 1 FROM ins)`,

    /** The refusing holder, if it is still live. $1 id. */
    stillLive: `SELECT id, run_id FROM ${s}.jobs WHERE id = $1 AND state IN ${LIVE}`,

    /** The live holder of a key. $1 name, $2 tenant_id, $3 key. */
    holder: `
      SELECT id, run_id FROM ${s}.jobs
      WHERE name = $1 AND coalesce(tenant_id, '') = coalesce($2, '') AND idempotency_key = $3
        AND state IN ${LIVE}
      LIMIT 1`,
  };
}
