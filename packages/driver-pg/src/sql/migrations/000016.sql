-- Migration 16: a job's parent (`parentId`: the job a flow's child belongs to). `parent_id` is a
-- uuid as `id` is, NULL when unset, stored as given and never checked against `jobs` (a flow
-- enqueues the parent and its children in one batch, in any order). No index: nothing reads by it
-- yet. Adding a nullable column with no default rewrites nothing.
--
-- The claim answers it too, but claim_jobs' answer is a fixed row type that CREATE OR REPLACE
-- cannot change, and a process of the previous version holds `SELECT * FROM claim_jobs(...)`
-- prepared: replacing the function (DROP, CREATE) fails that statement with "cached plan must
-- not change result type" on every connection that prepared it. So claim_jobs_v2 is migration 9's
-- claim_jobs, its signature, settings and statements, with parent_id in its answer, and
-- claim_jobs stays as migration 9 wrote it for the previous version's processes during a rolling
-- deploy.

ALTER TABLE :BERTH_SCHEMA.jobs ADD COLUMN IF NOT EXISTS parent_id uuid;

-- The body refers to its arguments as $1..$8: p_queues ($1) is narrowed to the unpaused queues.
CREATE OR REPLACE FUNCTION :BERTH_SCHEMA.claim_jobs_v2(
  p_queues text[], p_now bigint, p_limit integer, p_worker text, p_visibility_ms bigint,
  p_drop_exhausted text[], p_lapsed_error json, p_names text[])
RETURNS TABLE (seq bigint, id uuid, run_id uuid, name text, queue text, payload text,
  state text, priority integer, attempts integer, max_attempts integer, run_at bigint,
  created_at bigint, updated_at bigint, finished_at bigint, claimed_by text, claim bigint,
  visible_at bigint, last_error text, result text, progress text, idempotency_key text,
  concurrency_key text, tenant_id text, traceparent text, enqueued_by text, parent_id uuid,
  wait_for text,
  resumed boolean)
LANGUAGE plpgsql VOLATILE
SET plan_cache_mode = force_generic_plan
SET jit = off
SET enable_seqscan = off
AS $fn$
#variable_conflict use_column
BEGIN
  p_queues := ARRAY(
    SELECT u.queue FROM unnest(p_queues) AS u(queue)
    WHERE NOT EXISTS (SELECT 1 FROM :BERTH_SCHEMA.paused_queues p WHERE p.queue = u.queue));
  IF cardinality(p_queues) = 0 THEN
    RETURN;
  END IF;
  IF p_names IS NULL THEN
    RETURN QUERY 
      WITH RECURSIVE 
      ready AS (
        SELECT r.* FROM unnest($1::text[]) AS q(queue)
        CROSS JOIN LATERAL (
          SELECT j.id, j.seq, j.state, j.priority, j.run_at FROM :BERTH_SCHEMA.jobs j
          WHERE j.queue = q.queue AND j.state = 'ready'
          ORDER BY priority DESC, run_at, seq
          LIMIT (SELECT $3::int)
          FOR UPDATE SKIP LOCKED
        ) r
      ), 
      cutoff AS (
        SELECT coalesce((SELECT priority FROM ready ORDER BY priority DESC, run_at, seq OFFSET $3 - 1 LIMIT 1),
          -2147483648) AS priority
      ), levels AS (
        SELECT k.queue, f.priority, d.n AS taken, d.ids, d.seqs, d.states, d.run_ats
        FROM (SELECT q.queue FROM unnest($1::text[]) AS q(queue)) k
        CROSS JOIN LATERAL (
          SELECT j.priority, j.run_at FROM :BERTH_SCHEMA.jobs j
          WHERE j.queue = k.queue AND j.state IN ('delayed', 'suspended')
          ORDER BY j.priority DESC, j.run_at, j.seq
          LIMIT 1
        ) f
        CROSS JOIN LATERAL (
          SELECT count(*) AS n, array_agg(t.id) AS ids, array_agg(t.seq) AS seqs,
            array_agg(t.state) AS states, array_agg(t.run_at) AS run_ats
          FROM (
            SELECT j.id, j.seq, j.state, j.run_at FROM :BERTH_SCHEMA.jobs j
            WHERE j.queue = k.queue AND j.state IN ('delayed', 'suspended') AND j.priority = f.priority
              AND j.run_at <= $2::bigint
              AND f.run_at <= $2::bigint AND f.priority >= (SELECT priority FROM cutoff)
            ORDER BY j.run_at, j.seq
            LIMIT $3::int
            FOR UPDATE SKIP LOCKED
          ) t
        ) d
        UNION ALL
        SELECT w.queue, f.priority, w.taken + d.n, d.ids, d.seqs, d.states, d.run_ats
        FROM levels w
        CROSS JOIN LATERAL (
          SELECT j.priority, j.run_at FROM :BERTH_SCHEMA.jobs j
          WHERE j.queue = w.queue AND j.state IN ('delayed', 'suspended') AND j.priority < w.priority
          ORDER BY j.priority DESC, j.run_at, j.seq
          LIMIT 1
        ) f
        CROSS JOIN LATERAL (
          SELECT count(*) AS n, array_agg(t.id) AS ids, array_agg(t.seq) AS seqs,
            array_agg(t.state) AS states, array_agg(t.run_at) AS run_ats
          FROM (
            SELECT j.id, j.seq, j.state, j.run_at FROM :BERTH_SCHEMA.jobs j
            WHERE j.queue = w.queue AND j.state IN ('delayed', 'suspended') AND j.priority = f.priority
              AND j.run_at <= $2::bigint
              AND f.run_at <= $2::bigint AND f.priority >= (SELECT priority FROM cutoff)
            ORDER BY j.run_at, j.seq
            LIMIT $3::int - w.taken
            FOR UPDATE SKIP LOCKED
          ) t
        ) d
        WHERE w.taken < $3::int AND w.priority > (SELECT priority FROM cutoff)
      ), due AS (
        SELECT unnest(l.ids) AS id, unnest(l.seqs) AS seq, unnest(l.states) AS state, l.priority,
          unnest(l.run_ats) AS run_at
        FROM levels l
      ), lapsing AS (
        SELECT l.* FROM unnest($1::text[]) AS q(queue)
        CROSS JOIN LATERAL (
          SELECT j.id, j.seq, j.state, j.priority, j.run_at, j.name,
            j.attempts >= j.max_attempts AS final
          FROM :BERTH_SCHEMA.jobs j
          WHERE j.queue = q.queue AND j.visible_at <= $2::bigint AND NOT j.lapsed
          ORDER BY j.visible_at
          LIMIT (SELECT $3 + 16::int)
          FOR UPDATE SKIP LOCKED
        ) l
      ), marked AS (
        SELECT m.* FROM unnest($1::text[]) AS q(queue)
        CROSS JOIN LATERAL (
          SELECT j.id, j.seq, j.state, j.priority, j.run_at, false AS final FROM :BERTH_SCHEMA.jobs j
          WHERE j.queue = q.queue AND j.lapsed AND j.state = 'running' AND j.attempts < j.max_attempts
          ORDER BY priority DESC, run_at, seq
          LIMIT (SELECT $3::int)
          FOR UPDATE SKIP LOCKED
        ) m
        UNION ALL
        SELECT m.* FROM unnest($1::text[]) AS q(queue)
        CROSS JOIN LATERAL (
          SELECT j.id, j.seq, j.state, j.priority, j.run_at, true AS final FROM :BERTH_SCHEMA.jobs j
          WHERE j.queue = q.queue AND j.lapsed AND j.state = 'running' AND j.attempts >= j.max_attempts
          ORDER BY priority DESC, run_at, seq
          LIMIT (SELECT $3::int)
          FOR UPDATE SKIP LOCKED
        ) m
      ), retried AS (
        SELECT id, seq, state, priority, run_at FROM (
          SELECT id, seq, state, priority, run_at FROM marked WHERE final = false
          UNION ALL
          SELECT id, seq, state, priority, run_at FROM lapsing
          WHERE final = false AND ($8::text[] IS NULL OR name = ANY($8::text[]))) c
        ORDER BY priority DESC, run_at, seq
        LIMIT $3
      ), exhausted AS (
        SELECT id, seq, state, priority, run_at FROM (
          SELECT id, seq, state, priority, run_at FROM marked WHERE final = true
          UNION ALL
          SELECT id, seq, state, priority, run_at FROM lapsing
          WHERE final = true AND ($8::text[] IS NULL OR name = ANY($8::text[]))) c
        ORDER BY priority DESC, run_at, seq
        LIMIT $3
      ), claimable AS (
        SELECT id, seq, state FROM (
          SELECT * FROM ready UNION ALL SELECT * FROM due UNION ALL SELECT * FROM retried) c
        ORDER BY priority DESC, run_at, seq
        LIMIT $3
      ), claimed AS (
        UPDATE :BERTH_SCHEMA.jobs j SET
          state = 'running',
          claim = j.claim + 1,
          claimed_by = $4,
          visible_at = $2::bigint + $5::bigint,
          wait_for = NULL,
          lapsed = false,
          attempts = j.attempts + 1,
          updated_at = $2::bigint
        WHERE j.id = ANY(ARRAY(SELECT id FROM claimable WHERE state <> 'suspended'))
        RETURNING j.seq, j.id, j.run_id, j.name, j.queue, j.payload::text AS payload, j.state, j.priority, j.attempts, j.max_attempts, j.run_at, j.created_at, j.updated_at, j.finished_at, j.claimed_by, j.claim, j.visible_at, j.last_error::text AS last_error, j.result::text AS result, j.progress::text AS progress, j.idempotency_key, j.concurrency_key, j.tenant_id, j.traceparent, j.enqueued_by, j.parent_id, j.wait_for
      ), resumed AS (
        UPDATE :BERTH_SCHEMA.jobs j SET
          state = 'running',
          claim = j.claim + 1,
          claimed_by = $4,
          visible_at = $2::bigint + $5::bigint,
          wait_for = NULL,
          lapsed = false,
          attempts = j.attempts,
          updated_at = $2::bigint
        WHERE j.id = ANY(ARRAY(SELECT id FROM claimable WHERE state = 'suspended'))
        RETURNING j.seq, j.id, j.run_id, j.name, j.queue, j.payload::text AS payload, j.state, j.priority, j.attempts, j.max_attempts, j.run_at, j.created_at, j.updated_at, j.finished_at, j.claimed_by, j.claim, j.visible_at, j.last_error::text AS last_error, j.result::text AS result, j.progress::text AS progress, j.idempotency_key, j.concurrency_key, j.tenant_id, j.traceparent, j.enqueued_by, j.parent_id, j.wait_for
      ), buried AS (
        UPDATE :BERTH_SCHEMA.jobs j SET
          state = CASE WHEN j.name = ANY($6::text[]) THEN 'failed' ELSE 'dead' END,
          finished_at = $2::bigint,
          claimed_by = NULL,
          visible_at = NULL,
          last_error = $7::json,
          updated_at = $2::bigint
        WHERE j.id = ANY(ARRAY(SELECT id FROM exhausted))
        RETURNING j.seq, j.id, j.run_id, j.name, j.queue, j.payload::text AS payload, j.state, j.priority, j.attempts, j.max_attempts, j.run_at, j.created_at, j.updated_at, j.finished_at, j.claimed_by, j.claim, j.visible_at, j.last_error::text AS last_error, j.result::text AS result, j.progress::text AS progress, j.idempotency_key, j.concurrency_key, j.tenant_id, j.traceparent, j.enqueued_by, j.parent_id, j.wait_for
      ), found AS (
        UPDATE :BERTH_SCHEMA.jobs j SET lapsed = true
        WHERE j.id = ANY(ARRAY(SELECT id FROM lapsing WHERE seq NOT IN (SELECT seq FROM claimable) AND seq NOT IN (SELECT seq FROM exhausted)))
        RETURNING 1
      )
      SELECT seq, id, run_id, name, queue, payload, state, priority, attempts, max_attempts, run_at, created_at, updated_at, finished_at, claimed_by, claim, visible_at, last_error, result, progress, idempotency_key, concurrency_key, tenant_id, traceparent, enqueued_by, parent_id, wait_for, false AS resumed FROM claimed
      UNION ALL
      SELECT seq, id, run_id, name, queue, payload, state, priority, attempts, max_attempts, run_at, created_at, updated_at, finished_at, claimed_by, claim, visible_at, last_error, result, progress, idempotency_key, concurrency_key, tenant_id, traceparent, enqueued_by, parent_id, wait_for, true FROM resumed
      UNION ALL
      SELECT seq, id, run_id, name, queue, payload, state, priority, attempts, max_attempts, run_at, created_at, updated_at, finished_at, claimed_by, claim, visible_at, last_error, result, progress, idempotency_key, concurrency_key, tenant_id, traceparent, enqueued_by, parent_id, wait_for, false FROM buried
      ORDER BY priority DESC, run_at, seq;
  ELSE
    RETURN QUERY 
      WITH RECURSIVE 
      ready AS (
        SELECT r.* FROM unnest($1::text[]) AS q(queue) CROSS JOIN unnest($8::text[]) AS n(name)
        CROSS JOIN LATERAL (
          SELECT j.id, j.seq, j.state, j.priority, j.run_at FROM :BERTH_SCHEMA.jobs j
          WHERE j.queue = q.queue AND j.name = n.name AND j.state = 'ready'
          ORDER BY priority DESC, run_at, seq
          LIMIT (SELECT $3::int)
          FOR UPDATE SKIP LOCKED
        ) r
      ), 
      cutoff AS (
        SELECT coalesce((SELECT priority FROM ready ORDER BY priority DESC, run_at, seq OFFSET $3 - 1 LIMIT 1),
          -2147483648) AS priority
      ), levels AS (
        SELECT k.queue, k.name, f.priority, d.n AS taken, d.ids, d.seqs, d.states, d.run_ats
        FROM (SELECT q.queue, n.name FROM unnest($1::text[]) AS q(queue) CROSS JOIN unnest($8::text[]) AS n(name)) k
        CROSS JOIN LATERAL (
          SELECT j.priority, j.run_at FROM :BERTH_SCHEMA.jobs j
          WHERE j.queue = k.queue AND j.name = k.name AND j.state IN ('delayed', 'suspended')
          ORDER BY j.priority DESC, j.run_at, j.seq
          LIMIT 1
        ) f
        CROSS JOIN LATERAL (
          SELECT count(*) AS n, array_agg(t.id) AS ids, array_agg(t.seq) AS seqs,
            array_agg(t.state) AS states, array_agg(t.run_at) AS run_ats
          FROM (
            SELECT j.id, j.seq, j.state, j.run_at FROM :BERTH_SCHEMA.jobs j
            WHERE j.queue = k.queue AND j.name = k.name AND j.state IN ('delayed', 'suspended') AND j.priority = f.priority
              AND j.run_at <= $2::bigint
              AND f.run_at <= $2::bigint AND f.priority >= (SELECT priority FROM cutoff)
            ORDER BY j.run_at, j.seq
            LIMIT $3::int
            FOR UPDATE SKIP LOCKED
          ) t
        ) d
        UNION ALL
        SELECT w.queue, w.name, f.priority, w.taken + d.n, d.ids, d.seqs, d.states, d.run_ats
        FROM levels w
        CROSS JOIN LATERAL (
          SELECT j.priority, j.run_at FROM :BERTH_SCHEMA.jobs j
          WHERE j.queue = w.queue AND j.name = w.name AND j.state IN ('delayed', 'suspended') AND j.priority < w.priority
          ORDER BY j.priority DESC, j.run_at, j.seq
          LIMIT 1
        ) f
        CROSS JOIN LATERAL (
          SELECT count(*) AS n, array_agg(t.id) AS ids, array_agg(t.seq) AS seqs,
            array_agg(t.state) AS states, array_agg(t.run_at) AS run_ats
          FROM (
            SELECT j.id, j.seq, j.state, j.run_at FROM :BERTH_SCHEMA.jobs j
            WHERE j.queue = w.queue AND j.name = w.name AND j.state IN ('delayed', 'suspended') AND j.priority = f.priority
              AND j.run_at <= $2::bigint
              AND f.run_at <= $2::bigint AND f.priority >= (SELECT priority FROM cutoff)
            ORDER BY j.run_at, j.seq
            LIMIT $3::int - w.taken
            FOR UPDATE SKIP LOCKED
          ) t
        ) d
        WHERE w.taken < $3::int AND w.priority > (SELECT priority FROM cutoff)
      ), due AS (
        SELECT unnest(l.ids) AS id, unnest(l.seqs) AS seq, unnest(l.states) AS state, l.priority,
          unnest(l.run_ats) AS run_at
        FROM levels l
      ), lapsing AS (
        SELECT l.* FROM unnest($1::text[]) AS q(queue)
        CROSS JOIN LATERAL (
          SELECT j.id, j.seq, j.state, j.priority, j.run_at, j.name,
            j.attempts >= j.max_attempts AS final
          FROM :BERTH_SCHEMA.jobs j
          WHERE j.queue = q.queue AND j.visible_at <= $2::bigint AND NOT j.lapsed
          ORDER BY j.visible_at
          LIMIT (SELECT $3 + 16::int)
          FOR UPDATE SKIP LOCKED
        ) l
      ), marked AS (
        SELECT m.* FROM unnest($1::text[]) AS q(queue) CROSS JOIN unnest($8::text[]) AS n(name)
        CROSS JOIN LATERAL (
          SELECT j.id, j.seq, j.state, j.priority, j.run_at, false AS final FROM :BERTH_SCHEMA.jobs j
          WHERE j.queue = q.queue AND j.name = n.name AND j.lapsed AND j.state = 'running' AND j.attempts < j.max_attempts
          ORDER BY priority DESC, run_at, seq
          LIMIT (SELECT $3::int)
          FOR UPDATE SKIP LOCKED
        ) m
        UNION ALL
        SELECT m.* FROM unnest($1::text[]) AS q(queue) CROSS JOIN unnest($8::text[]) AS n(name)
        CROSS JOIN LATERAL (
          SELECT j.id, j.seq, j.state, j.priority, j.run_at, true AS final FROM :BERTH_SCHEMA.jobs j
          WHERE j.queue = q.queue AND j.name = n.name AND j.lapsed AND j.state = 'running' AND j.attempts >= j.max_attempts
          ORDER BY priority DESC, run_at, seq
          LIMIT (SELECT $3::int)
          FOR UPDATE SKIP LOCKED
        ) m
      ), retried AS (
        SELECT id, seq, state, priority, run_at FROM (
          SELECT id, seq, state, priority, run_at FROM marked WHERE final = false
          UNION ALL
          SELECT id, seq, state, priority, run_at FROM lapsing
          WHERE final = false AND ($8::text[] IS NULL OR name = ANY($8::text[]))) c
        ORDER BY priority DESC, run_at, seq
        LIMIT $3
      ), exhausted AS (
        SELECT id, seq, state, priority, run_at FROM (
          SELECT id, seq, state, priority, run_at FROM marked WHERE final = true
          UNION ALL
          SELECT id, seq, state, priority, run_at FROM lapsing
          WHERE final = true AND ($8::text[] IS NULL OR name = ANY($8::text[]))) c
        ORDER BY priority DESC, run_at, seq
        LIMIT $3
      ), claimable AS (
        SELECT id, seq, state FROM (
          SELECT * FROM ready UNION ALL SELECT * FROM due UNION ALL SELECT * FROM retried) c
        ORDER BY priority DESC, run_at, seq
        LIMIT $3
      ), claimed AS (
        UPDATE :BERTH_SCHEMA.jobs j SET
          state = 'running',
          claim = j.claim + 1,
          claimed_by = $4,
          visible_at = $2::bigint + $5::bigint,
          wait_for = NULL,
          lapsed = false,
          attempts = j.attempts + 1,
          updated_at = $2::bigint
        WHERE j.id = ANY(ARRAY(SELECT id FROM claimable WHERE state <> 'suspended'))
        RETURNING j.seq, j.id, j.run_id, j.name, j.queue, j.payload::text AS payload, j.state, j.priority, j.attempts, j.max_attempts, j.run_at, j.created_at, j.updated_at, j.finished_at, j.claimed_by, j.claim, j.visible_at, j.last_error::text AS last_error, j.result::text AS result, j.progress::text AS progress, j.idempotency_key, j.concurrency_key, j.tenant_id, j.traceparent, j.enqueued_by, j.parent_id, j.wait_for
      ), resumed AS (
        UPDATE :BERTH_SCHEMA.jobs j SET
          state = 'running',
          claim = j.claim + 1,
          claimed_by = $4,
          visible_at = $2::bigint + $5::bigint,
          wait_for = NULL,
          lapsed = false,
          attempts = j.attempts,
          updated_at = $2::bigint
        WHERE j.id = ANY(ARRAY(SELECT id FROM claimable WHERE state = 'suspended'))
        RETURNING j.seq, j.id, j.run_id, j.name, j.queue, j.payload::text AS payload, j.state, j.priority, j.attempts, j.max_attempts, j.run_at, j.created_at, j.updated_at, j.finished_at, j.claimed_by, j.claim, j.visible_at, j.last_error::text AS last_error, j.result::text AS result, j.progress::text AS progress, j.idempotency_key, j.concurrency_key, j.tenant_id, j.traceparent, j.enqueued_by, j.parent_id, j.wait_for
      ), buried AS (
        UPDATE :BERTH_SCHEMA.jobs j SET
          state = CASE WHEN j.name = ANY($6::text[]) THEN 'failed' ELSE 'dead' END,
          finished_at = $2::bigint,
          claimed_by = NULL,
          visible_at = NULL,
          last_error = $7::json,
          updated_at = $2::bigint
        WHERE j.id = ANY(ARRAY(SELECT id FROM exhausted))
        RETURNING j.seq, j.id, j.run_id, j.name, j.queue, j.payload::text AS payload, j.state, j.priority, j.attempts, j.max_attempts, j.run_at, j.created_at, j.updated_at, j.finished_at, j.claimed_by, j.claim, j.visible_at, j.last_error::text AS last_error, j.result::text AS result, j.progress::text AS progress, j.idempotency_key, j.concurrency_key, j.tenant_id, j.traceparent, j.enqueued_by, j.parent_id, j.wait_for
      ), found AS (
        UPDATE :BERTH_SCHEMA.jobs j SET lapsed = true
        WHERE j.id = ANY(ARRAY(SELECT id FROM lapsing WHERE seq NOT IN (SELECT seq FROM claimable) AND seq NOT IN (SELECT seq FROM exhausted)))
        RETURNING 1
      )
      SELECT seq, id, run_id, name, queue, payload, state, priority, attempts, max_attempts, run_at, created_at, updated_at, finished_at, claimed_by, claim, visible_at, last_error, result, progress, idempotency_key, concurrency_key, tenant_id, traceparent, enqueued_by, parent_id, wait_for, false AS resumed FROM claimed
      UNION ALL
      SELECT seq, id, run_id, name, queue, payload, state, priority, attempts, max_attempts, run_at, created_at, updated_at, finished_at, claimed_by, claim, visible_at, last_error, result, progress, idempotency_key, concurrency_key, tenant_id, traceparent, enqueued_by, parent_id, wait_for, true FROM resumed
      UNION ALL
      SELECT seq, id, run_id, name, queue, payload, state, priority, attempts, max_attempts, run_at, created_at, updated_at, finished_at, claimed_by, claim, visible_at, last_error, result, progress, idempotency_key, concurrency_key, tenant_id, traceparent, enqueued_by, parent_id, wait_for, false FROM buried
      ORDER BY priority DESC, run_at, seq;
  END IF;
END
$fn$;

INSERT INTO :BERTH_SCHEMA.migrations (version) VALUES (16) ON CONFLICT DO NOTHING;
