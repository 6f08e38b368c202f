import { LIVE } from './columns.js';
import { INSERT_COLUMNS } from './enqueue.js';

/**
 * What an inserted row is made of, selected from a source with the item columns `rows.ts`'s
 * batch arrays name (id, run_id, name, queue, payload, run_at, priority, max_attempts, idem_key,
 * concurrency_key, tenant_id, traceparent, enqueued_by, parent_id, ord); `now` is a parameter
 * reference.
 */
const landed = (now: string) => `
  id, run_id, name, queue, payload::json,
  CASE WHEN run_at > ${now}::bigint THEN 'delayed' ELSE 'ready' END,
  priority, 0, max_attempts, run_at, ${now}, ${now}, 0, idem_key, concurrency_key, tenant_id,
  traceparent, enqueued_by, parent_id`;

/** One NOTIFY per queue among `queues` (a relation with a `queue` column); counts them. */
const wake = (channel: string, queues: string) =>
  `SELECT pg_notify(${channel}, q.queue) FROM (SELECT DISTINCT queue FROM ${queues}) q`;

/**
 * The statements of `enqueueMany` for the quoted schema `s`: a plain insert when no item carries
 * a caller id or an idempotency key (nothing can refuse or dedupe it), else the keyed walk.
 */
export function enqueueManySql(s: string) {
  return {
    /**
     * Every item lands, in batch order (so seq follows it), with no read of the table: ids are
     * fresh, so only the unique index could refuse one, and that refuses the whole statement.
     * Arrays: $1 id, $2 run_id, $3 name, $4 queue, $5 payload, $6 run_at, $7 priority,
     * $8 max_attempts, $9 concurrency_key, $10 tenant_id, $11 traceparent, $12 enqueued_by,
     * $13 parent_id; $14 now, $15 channel.
     */
    insertPlain: `
      WITH items AS (
        SELECT *, NULL::text AS idem_key FROM unnest($1::uuid[], $2::uuid[], $3::text[],
          $4::text[], $5::text[], $6::bigint[], $7::int[], $8::int[], $9::text[], $10::text[],
          $11::text[], $12::text[], $13::uuid[])
          WITH ORDINALITY AS t(id, run_id, name, queue, payload, run_at, priority, max_attempts,
            concurrency_key, tenant_id, traceparent, enqueued_by, parent_id, ord)
      ), ins AS (
        INSERT INTO ${s}.jobs (${INSERT_COLUMNS})
        SELECT ${landed('$14')} FROM items ORDER BY ord
      ), woke AS (${wake('$15', 'unnest($4::text[]) AS i(queue)')})
      SELECT count(*) AS woke FROM woke`,

    /**
     * A batch with caller ids or keys, in ONE statement that applies the requests in order, as
     * enqueue would one by one: a caller id that exists (in the table or landed earlier in the
     * batch) answers that job, or is 'taken' when another tenant's row holds it (nothing lands
     * then either); a key held live (in the table or by an earlier landed item) dedupes or is an
     * error; anything else lands. Nothing is inserted when any item is an error. No ON CONFLICT:
     * a writer that took an id or key after this statement read the table makes the unique index
     * refuse the whole statement (23505), so the batch never lands in part.
     *
     * Each item's table facts are one index probe per id and per key (`facts`). An item whose
     * caller id and key namespace no other item of the batch shares is decided by its facts
     * alone; only the items that share one with another (`chained`) are walked in order, so a
     * batch of distinct ids and keys is linear and the walk's cost grows with its repeats only.
     * Arrays: $1 ord, $2 id, $3 caller, $4 run_id, $5 name, $6 queue, $7 payload, $8 run_at,
     * $9 priority, $10 max_attempts, $11 key, $12 on_error, $13 concurrency_key, $14 tenant_id,
     * $15 traceparent, $16 enqueued_by, $17 parent_id, $18 namespace key; $19 now, $20 channel.
     */
    insertMany: `
      WITH RECURSIVE items AS (
        SELECT * FROM unnest($1::int[], $2::uuid[], $3::bool[], $4::uuid[], $5::text[],
          $6::text[], $7::text[], $8::bigint[], $9::int[], $10::int[], $11::text[], $12::bool[],
          $13::text[], $14::text[], $15::text[], $16::text[], $17::uuid[], $18::text[])
          AS t(ord, id, caller, run_id, name, queue, payload, run_at, priority, max_attempts,
               idem_key, on_error, concurrency_key, tenant_id, traceparent, enqueued_by, parent_id,
               nk)
      ), keyed AS (
        SELECT *, CASE WHEN caller THEN id END AS caller_id FROM items
      ), facts AS (
        SELECT i.*, d.id AS id_hit, d.run_id AS id_hit_run, d.tenant AS id_hit_tenant,
          h.id AS key_hit, h.run_id AS key_hit_run,
          count(i.caller_id) OVER (PARTITION BY i.caller_id) > 1
            OR count(i.nk) OVER (PARTITION BY i.nk) > 1 AS chained
        FROM keyed i
        LEFT JOIN LATERAL (
          SELECT d.id, d.run_id, coalesce(d.tenant_id, '') AS tenant FROM ${s}.jobs d
          WHERE i.caller AND d.id = i.id
          LIMIT 1
        ) d ON true
        LEFT JOIN LATERAL (
          SELECT j.id, j.run_id FROM ${s}.jobs j
          WHERE i.idem_key IS NOT NULL AND j.name = i.name AND j.idempotency_key = i.idem_key
            AND coalesce(j.tenant_id, '') = coalesce(i.tenant_id, '') AND j.state IN ${LIVE}
          LIMIT 1
        ) h ON true
      ), alone AS (
        SELECT f.ord,
          CASE WHEN f.id_hit_tenant <> coalesce(f.tenant_id, '') THEN 'taken'
               WHEN f.id_hit IS NOT NULL THEN 'id'
               WHEN f.key_hit IS NOT NULL THEN CASE WHEN f.on_error THEN 'error' ELSE 'key' END
               ELSE 'land' END AS verdict,
          coalesce(f.id_hit, f.key_hit, f.id) AS answer_id,
          coalesce(f.id_hit_run, f.key_hit_run, f.run_id) AS answer_run
        FROM facts f WHERE NOT f.chained
      ), chained AS (
        SELECT f.*, row_number() OVER (ORDER BY f.ord) AS k FROM facts f WHERE f.chained
      ), walk (k, ord, ids, runs, nks, tenants, verdict, answer_id, answer_run) AS (
        SELECT 0::bigint, 0, ARRAY[]::uuid[], ARRAY[]::uuid[], ARRAY[]::text[], ARRAY[]::text[],
          NULL::text, NULL::uuid, NULL::uuid
        UNION ALL
        SELECT f.k, f.ord,
          CASE WHEN v.verdict = 'land' THEN w.ids || f.id ELSE w.ids END,
          CASE WHEN v.verdict = 'land' THEN w.runs || f.run_id ELSE w.runs END,
          CASE WHEN v.verdict = 'land' THEN w.nks || f.nk ELSE w.nks END,
          CASE WHEN v.verdict = 'land' THEN w.tenants || coalesce(f.tenant_id, '') ELSE w.tenants END,
          v.verdict, v.answer_id, v.answer_run
        FROM walk w
        JOIN chained f ON f.k = w.k + 1
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
      ), verdicts AS (
        SELECT ord, verdict, answer_id, answer_run FROM alone
        UNION ALL
        SELECT ord, verdict, answer_id, answer_run FROM walk WHERE k > 0
      ), ins AS (
        INSERT INTO ${s}.jobs (${INSERT_COLUMNS})
        SELECT ${landed('$19')}
        FROM facts f JOIN verdicts v ON v.ord = f.ord
        WHERE v.verdict = 'land'
          AND NOT EXISTS (SELECT 1 FROM verdicts e WHERE e.verdict IN ('error', 'taken'))
        ORDER BY f.ord
        RETURNING queue
      ), woke AS (${wake('$20', 'ins')})
      SELECT v.ord, v.verdict, v.answer_id, v.answer_run, (SELECT count(*) FROM woke) AS woke
      FROM verdicts v ORDER BY v.ord`,
  };
}
