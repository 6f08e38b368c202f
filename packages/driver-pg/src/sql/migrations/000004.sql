-- Migration 4: lapsed leases in claim order, and the claim as a function, claim_jobs, whose
-- statement PostgreSQL plans once per session instead of on every call (planning the claim cost
-- more than running it on an idle queue). Its generic plan walks the same indexes as a plan for
-- given arguments, behind any backlog and whatever the statistics say, also when it was made on
-- an empty table (`claim-plan.test.ts`). Its settings: sequential scans off, as a plan made while
-- the table looked empty would otherwise reach the claimed rows by scanning jobs (every access is
-- by an index); JIT off, as the generic plan's cost estimate crosses `jit_above_cost` and
-- compiling it cost ~70 ms a call.
--
-- This claim_jobs read the 200 oldest due delayed or suspended rows per queue and promoted those
-- it did not take to 'ready'; migration 6 replaced it, and migration 9's is the claim of today.

-- Lapsed leases in claim order. A claim finds leases that ran out in jobs_lease_expiry_idx, a
-- bounded batch at a time, oldest expiry first, and marks those it does not take at once
-- `lapsed`, which moves them out of that index and into the claim-order ones below: no claim
-- sorts every lapsed lease of a queue (a fleet that died holding 50k leases made each claim
-- sort 50k rows). A row leaves them when it is claimed again, settled or its lease renewed.
ALTER TABLE :BERTH_SCHEMA.jobs ADD COLUMN IF NOT EXISTS lapsed boolean NOT NULL DEFAULT false;
CREATE INDEX IF NOT EXISTS jobs_lease_expiry_idx ON :BERTH_SCHEMA.jobs (queue, visible_at)
  WHERE visible_at IS NOT NULL AND NOT lapsed;
DROP INDEX IF EXISTS :BERTH_SCHEMA.jobs_lapse_idx;
CREATE INDEX IF NOT EXISTS jobs_lapsed_idx ON :BERTH_SCHEMA.jobs (queue, priority DESC, run_at, seq)
  WHERE lapsed AND state = 'running' AND attempts < max_attempts;
CREATE INDEX IF NOT EXISTS jobs_lapsed_name_idx
  ON :BERTH_SCHEMA.jobs (queue, name, priority DESC, run_at, seq)
  WHERE lapsed AND state = 'running' AND attempts < max_attempts;
CREATE INDEX IF NOT EXISTS jobs_lapsed_final_idx ON :BERTH_SCHEMA.jobs (queue, priority DESC, run_at, seq)
  WHERE lapsed AND state = 'running' AND attempts >= max_attempts;
CREATE INDEX IF NOT EXISTS jobs_lapsed_final_name_idx
  ON :BERTH_SCHEMA.jobs (queue, name, priority DESC, run_at, seq)
  WHERE lapsed AND state = 'running' AND attempts >= max_attempts;

-- The body refers to its arguments as $1..$8: p_names null claims every name.
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
  IF p_names IS NULL THEN
    RETURN QUERY 
      WITH 
      ready AS (
        SELECT r.* FROM unnest($1::text[]) AS q(queue)
        CROSS JOIN LATERAL (
          SELECT j.id, j.seq, j.state, j.priority, j.run_at FROM :BERTH_SCHEMA.jobs j
          WHERE j.queue = q.queue AND j.state = 'ready'
          ORDER BY priority DESC, run_at, seq
          LIMIT (SELECT $3::int)
          FOR UPDATE SKIP LOCKED
        ) r
      ), due AS (
        SELECT d.* FROM unnest($1::text[]) AS q(queue)
        CROSS JOIN LATERAL (
          SELECT j.id, j.seq, j.state, j.priority, j.run_at FROM :BERTH_SCHEMA.jobs j
          WHERE j.queue = q.queue AND j.state IN ('delayed', 'suspended') AND j.run_at <= $2::bigint
          ORDER BY j.run_at, j.seq
          LIMIT (SELECT 200::int)
          FOR UPDATE SKIP LOCKED
        ) d
      ), lapsing AS (
        SELECT l.* FROM unnest($1::text[]) AS q(queue)
        CROSS JOIN LATERAL (
          SELECT j.id, j.seq, j.state, j.priority, j.run_at, j.name,
            j.attempts >= j.max_attempts AS final
          FROM :BERTH_SCHEMA.jobs j
          WHERE j.queue = q.queue AND j.visible_at <= $2::bigint AND NOT j.lapsed
          ORDER BY j.visible_at
          LIMIT (SELECT 200::int)
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
      ), promoted AS (
        UPDATE :BERTH_SCHEMA.jobs j SET state = 'ready'
        WHERE j.id = ANY(ARRAY(SELECT id FROM due WHERE state = 'delayed' AND seq NOT IN (SELECT seq FROM claimable)))
        RETURNING 1
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
      WITH 
      ready AS (
        SELECT r.* FROM unnest($1::text[]) AS q(queue) CROSS JOIN unnest($8::text[]) AS n(name)
        CROSS JOIN LATERAL (
          SELECT j.id, j.seq, j.state, j.priority, j.run_at FROM :BERTH_SCHEMA.jobs j
          WHERE j.queue = q.queue AND j.name = n.name AND j.state = 'ready'
          ORDER BY priority DESC, run_at, seq
          LIMIT (SELECT $3::int)
          FOR UPDATE SKIP LOCKED
        ) r
      ), due AS (
        SELECT d.* FROM unnest($1::text[]) AS q(queue) CROSS JOIN unnest($8::text[]) AS n(name)
        CROSS JOIN LATERAL (
          SELECT j.id, j.seq, j.state, j.priority, j.run_at FROM :BERTH_SCHEMA.jobs j
          WHERE j.queue = q.queue AND j.name = n.name AND j.state IN ('delayed', 'suspended') AND j.run_at <= $2::bigint
          ORDER BY j.run_at, j.seq
          LIMIT (SELECT 200::int)
          FOR UPDATE SKIP LOCKED
        ) d
      ), lapsing AS (
        SELECT l.* FROM unnest($1::text[]) AS q(queue)
        CROSS JOIN LATERAL (
          SELECT j.id, j.seq, j.state, j.priority, j.run_at, j.name,
            j.attempts >= j.max_attempts AS final
          FROM :BERTH_SCHEMA.jobs j
          WHERE j.queue = q.queue AND j.visible_at <= $2::bigint AND NOT j.lapsed
          ORDER BY j.visible_at
          LIMIT (SELECT 200::int)
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
      ), promoted AS (
        UPDATE :BERTH_SCHEMA.jobs j SET state = 'ready'
        WHERE j.id = ANY(ARRAY(SELECT id FROM due WHERE state = 'delayed' AND seq NOT IN (SELECT seq FROM claimable)))
        RETURNING 1
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

INSERT INTO :BERTH_SCHEMA.migrations (version) VALUES (4) ON CONFLICT DO NOTHING;
