-- Migration 9: paused queues, and the claim_jobs of today. `paused_queues` holds one row per
-- paused queue, and claim_jobs leaves those queues out of its argument before reading any row
-- (one primary-key probe per queue asked for), so a claim that starts after a pause committed
-- takes nothing from the queue: neither claims nor buries. Newly lapsed leases are filed in
-- batches of the claim's limit plus 16, not 200: after a mass lapse every claim of migration 6
-- locked and marked 200 rows whatever its limit. The function keeps migration 6's signature and
-- settings.
--
-- The claim is ONE statement, written twice (every name when p_names is null; else per queue and
-- name), that hands out up to $3 claimable rows and, separately, buries up to $3 final-attempt
-- lapsed leases; both come back, told apart by state, in claim order. $1 queues, $2 now,
-- $3 limit, $4 worker, $5 visibility ms, $6 dropExhausted names, $7 the LEASE_LAPSED error
-- (JSON), $8 the job names to claim (null: every name); rows of other names are neither claimed
-- nor buried. Each walk stops after its limit and locks rows SKIP LOCKED as it reads them:
-- - ready: ready rows (always due) in claim order, from jobs_ready_idx (jobs_ready_name_idx);
-- - cutoff, levels, due: due delayed or suspended rows in claim order, one priority level at a
--   time, from jobs_due_order_idx (jobs_due_order_name_idx). A level's first row is its oldest,
--   so a level whose first row is not due costs that one probe; from a due level the walk locks
--   the due rows in order, as many as the claim may still take. It stops once it holds $3 rows
--   per key, or at cutoff, the priority of the $3-th best ready row, below which no row can be
--   among the best $3 (read only when a level is found);
-- - lapsing: the running rows of each queue (every name) whose lease ran out since a claim last
--   looked, oldest expiry first, from jobs_lease_expiry_idx, $3 + 16 at most: enough that the
--   best of a few lapsed at once are seen in claim order, and each claim files more than it can
--   take, so none is left behind;
-- - marked: those an earlier claim marked `lapsed`, in claim order, from jobs_lapsed_idx
--   (attempts left) or jobs_lapsed_final_idx (final attempt).
-- No walk reads a lease that is still live. `LIMIT (SELECT ...)` hides the limit from the
-- planner, so it costs the walk as stopping early, never against a Seq Scan and sort of jobs.
-- The best $3 candidates are claimed (`resumed`: the suspended ones, which keep their attempts),
-- the best $3 final-attempt lapsed leases buried, and the newly lapsed leases neither took are
-- marked `lapsed`, so they reach their claim-order index in bounded steps and no claim sorts more
-- than it read; a due delayed row it does not take stays as it is. Each update reaches its rows
-- by primary key through `ANY(ARRAY(...))`: the array keeps the planner from joining the batch to
-- jobs, and the row's state as this statement locked it is the one the update sees.

CREATE TABLE IF NOT EXISTS :BERTH_SCHEMA.paused_queues (
  queue text PRIMARY KEY,
  paused_at bigint NOT NULL
);

-- The body refers to its arguments as $1..$8: p_queues ($1) is narrowed to the unpaused queues.
CREATE OR REPLACE FUNCTION :BERTH_SCHEMA.claim_jobs(
  p_queues text[], p_now bigint, p_limit integer, p_worker text, p_visibility_ms bigint,
  p_drop_exhausted text[], p_lapsed_error json, p_names text[])
RETURNS TABLE (seq bigint, id uuid, run_id uuid, name text, queue text, payload text,
  state text, priority integer, attempts integer, max_attempts integer, run_at bigint,
  created_at bigint, updated_at bigint, finished_at bigint, claimed_by text, claim bigint,
  visible_at bigint, last_error text, result text, progress text, idempotency_key text,
  concurrency_key text, tenant_id text, traceparent text, enqueued_by text, wait_for text,
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
        RETURNING j.seq, j.id, j.run_id, j.name, j.queue, j.payload::text AS payload, j.state, j.priority, j.attempts, j.max_attempts, j.run_at, j.created_at, j.updated_at, j.finished_at, j.claimed_by, j.claim, j.visible_at, j.last_error::text AS last_error, j.result::text AS result, j.progress::text AS progress, j.idempotency_key, j.concurrency_key, j.tenant_id, j.traceparent, j.enqueued_by, j.wait_for
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
        RETURNING j.seq, j.id, j.run_id, j.name, j.queue, j.payload::text AS payload, j.state, j.priority, j.attempts, j.max_attempts, j.run_at, j.created_at, j.updated_at, j.finished_at, j.claimed_by, j.claim, j.visible_at, j.last_error::text AS last_error, j.result::text AS result, j.progress::text AS progress, j.idempotency_key, j.concurrency_key, j.tenant_id, j.traceparent, j.enqueued_by, j.wait_for
      ), buried AS (
        UPDATE :BERTH_SCHEMA.jobs j SET
          state = CASE WHEN j.name = ANY($6::text[]) THEN 'failed' ELSE 'dead' END,
          finished_at = $2::bigint,
          claimed_by = NULL,
          visible_at = NULL,
          last_error = $7::json,
          updated_at = $2::bigint
        WHERE j.id = ANY(ARRAY(SELECT id FROM exhausted))
        RETURNING j.seq, j.id, j.run_id, j.name, j.queue, j.payload::text AS payload, j.state, j.priority, j.attempts, j.max_attempts, j.run_at, j.created_at, j.updated_at, j.finished_at, j.claimed_by, j.claim, j.visible_at, j.last_error::text AS last_error, j.result::text AS result, j.progress::text AS progress, j.idempotency_key, j.concurrency_key, j.tenant_id, j.traceparent, j.enqueued_by, j.wait_for
      ), found AS (
        UPDATE :BERTH_SCHEMA.jobs j SET lapsed = true
        WHERE j.id = ANY(ARRAY(SELECT id FROM lapsing WHERE seq NOT IN (SELECT seq FROM claimable) AND seq NOT IN (SELECT seq FROM exhausted)))
        RETURNING 1
      )
      SELECT seq, id, run_id, name, queue, payload, state, priority, attempts, max_attempts, run_at, created_at, updated_at, finished_at, claimed_by, claim, visible_at, last_error, result, progress, idempotency_key, concurrency_key, tenant_id, traceparent, enqueued_by, wait_for, false AS resumed FROM claimed
      UNION ALL
      SELECT seq, id, run_id, name, queue, payload, state, priority, attempts, max_attempts, run_at, created_at, updated_at, finished_at, claimed_by, claim, visible_at, last_error, result, progress, idempotency_key, concurrency_key, tenant_id, traceparent, enqueued_by, wait_for, true FROM resumed
      UNION ALL
      SELECT seq, id, run_id, name, queue, payload, state, priority, attempts, max_attempts, run_at, created_at, updated_at, finished_at, claimed_by, claim, visible_at, last_error, result, progress, idempotency_key, concurrency_key, tenant_id, traceparent, enqueued_by, wait_for, false FROM buried
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
        RETURNING j.seq, j.id, j.run_id, j.name, j.queue, j.payload::text AS payload, j.state, j.priority, j.attempts, j.max_attempts, j.run_at, j.created_at, j.updated_at, j.finished_at, j.claimed_by, j.claim, j.visible_at, j.last_error::text AS last_error, j.result::text AS result, j.progress::text AS progress, j.idempotency_key, j.concurrency_key, j.tenant_id, j.traceparent, j.enqueued_by, j.wait_for
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
        RETURNING j.seq, j.id, j.run_id, j.name, j.queue, j.payload::text AS payload, j.state, j.priority, j.attempts, j.max_attempts, j.run_at, j.created_at, j.updated_at, j.finished_at, j.claimed_by, j.claim, j.visible_at, j.last_error::text AS last_error, j.result::text AS result, j.progress::text AS progress, j.idempotency_key, j.concurrency_key, j.tenant_id, j.traceparent, j.enqueued_by, j.wait_for
      ), buried AS (
        UPDATE :BERTH_SCHEMA.jobs j SET
          state = CASE WHEN j.name = ANY($6::text[]) THEN 'failed' ELSE 'dead' END,
          finished_at = $2::bigint,
          claimed_by = NULL,
          visible_at = NULL,
          last_error = $7::json,
          updated_at = $2::bigint
        WHERE j.id = ANY(ARRAY(SELECT id FROM exhausted))
        RETURNING j.seq, j.id, j.run_id, j.name, j.queue, j.payload::text AS payload, j.state, j.priority, j.attempts, j.max_attempts, j.run_at, j.created_at, j.updated_at, j.finished_at, j.claimed_by, j.claim, j.visible_at, j.last_error::text AS last_error, j.result::text AS result, j.progress::text AS progress, j.idempotency_key, j.concurrency_key, j.tenant_id, j.traceparent, j.enqueued_by, j.wait_for
      ), found AS (
        UPDATE :BERTH_SCHEMA.jobs j SET lapsed = true
        WHERE j.id = ANY(ARRAY(SELECT id FROM lapsing WHERE seq NOT IN (SELECT seq FROM claimable) AND seq NOT IN (SELECT seq FROM exhausted)))
        RETURNING 1
      )
      SELECT seq, id, run_id, name, queue, payload, state, priority, attempts, max_attempts, run_at, created_at, updated_at, finished_at, claimed_by, claim, visible_at, last_error, result, progress, idempotency_key, concurrency_key, tenant_id, traceparent, enqueued_by, wait_for, false AS resumed FROM claimed
      UNION ALL
      SELECT seq, id, run_id, name, queue, payload, state, priority, attempts, max_attempts, run_at, created_at, updated_at, finished_at, claimed_by, claim, visible_at, last_error, result, progress, idempotency_key, concurrency_key, tenant_id, traceparent, enqueued_by, wait_for, true FROM resumed
      UNION ALL
      SELECT seq, id, run_id, name, queue, payload, state, priority, attempts, max_attempts, run_at, created_at, updated_at, finished_at, claimed_by, claim, visible_at, last_error, result, progress, idempotency_key, concurrency_key, tenant_id, traceparent, enqueued_by, wait_for, false FROM buried
      ORDER BY priority DESC, run_at, seq;
  END IF;
END
$fn$;

INSERT INTO :BERTH_SCHEMA.migrations (version) VALUES (9) ON CONFLICT DO NOTHING;
