import { LIVE } from './columns.js';

const INSERT_COLUMNS =
  'id, run_id, name, queue, payload, state, priority, attempts, max_attempts, run_at, ' +
  'created_at, updated_at, claim, idempotency_key, concurrency_key, tenant_id, traceparent, enqueued_by';

/** The statements of `enqueue` and `enqueueMany` for the quoted schema `s`. */
export function enqueueSql(s: string) {
  return {
    /**
     * One insert, in ONE statement that also says why it was refused: the job a caller id
     * already made (`hit` 'id'; 'taken' when another tenant's row holds the id), or the live
     * holder of the key as this statement saw it (`hit` 'key'). Wakes the queue when it lands. $1 id, $2 run_id, $3 name, $4 queue, $5 payload,
     * $6 run_at, $7 now, $8 priority, $9 max_attempts, $10 key, $11 concurrency_key,
     * $12 tenant_id, $13 traceparent, $14 enqueued_by, $15 channel, $16 caller id given.
     */
    insert: `
      WITH ins AS (
        INSERT INTO ${s}.jobs (${INSERT_COLUMNS})
        VALUES ($1, $2, $3, $4, $5::json,
          CASE WHEN $6::bigint > $7::bigint THEN 'delayed' ELSE 'ready' END,
          $8, 0, $9, $6, $7, $7, 0, $10, $11, $12, $13, $14)
        ON CONFLICT DO NOTHING
        RETURNING id, run_id, queue
      ), woke AS (SELECT pg_notify($15, queue) FROM ins)
      SELECT id, run_id, 'inserted' AS hit, (SELECT count(*) FROM woke) AS woke FROM ins
      UNION ALL
      SELECT d.id, d.run_id,
        CASE WHEN coalesce(d.tenant_id, '') = coalesce($12::text, '') THEN 'id' ELSE 'taken' END, 0
      FROM ${s}.jobs d
      WHERE $16::bool AND d.id = $1 AND NOT EXISTS (SELECT 1 FROM ins)
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

    /**
     * A whole batch in ONE statement. `walk` applies the requests in order, as enqueue would one
     * by one: a caller id that exists (in the table or landed earlier in the batch) answers that
     * job, or is 'taken' when another tenant's row holds it (nothing lands then either); a key
     * held live (in the table or by an earlier landed item) dedupes or is an error; anything
     * else lands. Nothing is inserted when any item is an error. No ON CONFLICT: a
     * writer that took an id or key after this statement read the table makes the unique index
     * refuse the whole statement (23505), so the batch never lands in part.
     * Arrays: $1 ord, $2 id, $3 caller, $4 run_id, $5 name, $6 queue, $7 payload, $8 run_at,
     * $9 priority, $10 max_attempts, $11 key, $12 on_error, $13 concurrency_key, $14 tenant_id,
     * $15 traceparent, $16 enqueued_by, $17 namespace key; $18 now, $19 channel.
     */
    insertMany: `
      WITH RECURSIVE items AS (
        SELECT * FROM unnest($1::int[], $2::uuid[], $3::bool[], $4::uuid[], $5::text[],
          $6::text[], $7::text[], $8::bigint[], $9::int[], $10::int[], $11::text[], $12::bool[],
          $13::text[], $14::text[], $15::text[], $16::text[], $17::text[])
          AS t(ord, id, caller, run_id, name, queue, payload, run_at, priority, max_attempts,
               idem_key, on_error, concurrency_key, tenant_id, traceparent, enqueued_by, nk)
      ), facts AS (
        SELECT i.*, d.id AS id_hit, d.run_id AS id_hit_run, h.id AS key_hit, h.run_id AS key_hit_run,
          CASE WHEN d.id IS NOT NULL THEN coalesce(d.tenant_id, '') END AS id_hit_tenant
        FROM items i
        LEFT JOIN ${s}.jobs d ON i.caller AND d.id = i.id
        LEFT JOIN LATERAL (
          SELECT j.id, j.run_id FROM ${s}.jobs j
          WHERE i.idem_key IS NOT NULL AND j.name = i.name AND j.idempotency_key = i.idem_key
            AND coalesce(j.tenant_id, '') = coalesce(i.tenant_id, '') AND j.state IN ${LIVE}
          LIMIT 1
        ) h ON true
      ), walk (ord, ids, runs, nks, tenants, verdict, answer_id, answer_run) AS (
        SELECT 0, ARRAY[]::uuid[], ARRAY[]::uuid[], ARRAY[]::text[], ARRAY[]::text[], NULL::text,
          NULL::uuid, NULL::uuid
        UNION ALL
        SELECT f.ord,
          CASE WHEN v.verdict = 'land' THEN w.ids || f.id ELSE w.ids END,
          CASE WHEN v.verdict = 'land' THEN w.runs || f.run_id ELSE w.runs END,
          CASE WHEN v.verdict = 'land' THEN w.nks || f.nk ELSE w.nks END,
          CASE WHEN v.verdict = 'land' THEN w.tenants || coalesce(f.tenant_id, '') ELSE w.tenants END,
          v.verdict, v.answer_id, v.answer_run
        FROM walk w
        JOIN facts f ON f.ord = w.ord + 1
        CROSS JOIN LATERAL (
          SELECT CASE WHEN f.caller THEN array_position(w.ids, f.id) END AS id_at,
                 CASE WHEN f.nk IS NOT NULL THEN array_position(w.nks, f.nk) END AS nk_at
        ) p
        CROSS JOIN LATERAL (
          SELECT
            CASE WHEN coalesce(f.id_hit_tenant, w.tenants[p.id_at]) <> coalesce(f.tenant_id, '')
                   THEN 'taken'
                 WHEN f.id_hit IS NOT NULL OR p.id_at IS NOT NULL THEN 'id'
                 WHEN f.key_hit IS NOT NULL OR p.nk_at IS NOT NULL THEN
                   CASE WHEN f.on_error THEN 'error' ELSE 'key' END
                 ELSE 'land' END AS verdict,
            CASE WHEN f.id_hit IS NOT NULL OR p.id_at IS NOT NULL THEN coalesce(f.id_hit, w.ids[p.id_at])
                 WHEN f.key_hit IS NOT NULL OR p.nk_at IS NOT NULL THEN coalesce(f.key_hit, w.ids[p.nk_at])
                 ELSE f.id END AS answer_id,
            CASE WHEN f.id_hit IS NOT NULL OR p.id_at IS NOT NULL THEN coalesce(f.id_hit_run, w.runs[p.id_at])
                 WHEN f.key_hit IS NOT NULL OR p.nk_at IS NOT NULL THEN coalesce(f.key_hit_run, w.runs[p.nk_at])
                 ELSE f.run_id END AS answer_run
        ) v
      ), landing AS (
        SELECT f.* FROM facts f JOIN walk w ON w.ord = f.ord
        WHERE w.verdict = 'land'
          AND NOT EXISTS (SELECT 1 FROM walk e WHERE e.verdict IN ('error', 'taken'))
      ), ins AS (
        INSERT INTO ${s}.jobs (${INSERT_COLUMNS})
        SELECT id, run_id, name, queue, payload::json,
          CASE WHEN run_at > $18::bigint THEN 'delayed' ELSE 'ready' END,
          priority, 0, max_attempts, run_at, $18, $18, 0, idem_key, concurrency_key, tenant_id,
          traceparent, enqueued_by
        FROM landing ORDER BY ord
        RETURNING id, queue
      ), woke AS (SELECT pg_notify($19, q.queue) FROM (SELECT DISTINCT queue FROM ins) q)
      SELECT w.ord, w.verdict, w.answer_id, w.answer_run, (SELECT count(*) FROM woke) AS woke
      FROM walk w WHERE w.ord > 0 ORDER BY w.ord`,
  };
}
