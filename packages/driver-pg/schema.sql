--
-- PostgreSQL database dump
--

--
-- Name: berth; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA berth;

--
-- Name: acquire_slot(text, integer, text, bigint, bigint, integer); Type: FUNCTION; Schema: berth; Owner: -
--

CREATE FUNCTION berth.acquire_slot(p_key text, p_limit integer, p_holder text, p_now bigint, p_expires bigint, p_sweep integer) RETURNS boolean
    LANGUAGE plpgsql
    AS $$
DECLARE
  v_held integer;
  v_swept integer;
BEGIN
  PERFORM "berth".sweep_slot_keys(p_key, p_now, p_sweep);
  INSERT INTO "berth".slot_keys AS k (key, held, expires_at) VALUES (p_key, 0, p_expires)
    ON CONFLICT (key) DO UPDATE SET expires_at = greatest(k.expires_at, excluded.expires_at)
    RETURNING held INTO v_held;
  UPDATE "berth".slot_holders SET expires_at = p_expires
    WHERE key = p_key AND holder = p_holder AND expires_at > p_now;
  IF FOUND THEN RETURN true; END IF;
  WITH gone AS (
    DELETE FROM "berth".slot_holders WHERE key = p_key AND expires_at <= p_now RETURNING 1
  ) SELECT count(*) INTO v_swept FROM gone;
  v_held := v_held - v_swept;
  IF v_held >= p_limit THEN
    UPDATE "berth".slot_keys SET held = v_held WHERE key = p_key;
    RETURN false;
  END IF;
  INSERT INTO "berth".slot_holders (key, holder, expires_at) VALUES (p_key, p_holder, p_expires);
  UPDATE "berth".slot_keys SET held = v_held + 1 WHERE key = p_key;
  RETURN true;
END
$$;

--
-- Name: append_job_logs(uuid, text, bigint, bigint, bigint[], text[], text[], integer); Type: FUNCTION; Schema: berth; Owner: -
--

CREATE FUNCTION berth.append_job_logs(p_job uuid, p_worker text, p_claim bigint, p_from bigint, p_at bigint[], p_level text[], p_message text[], p_cap integer) RETURNS boolean
    LANGUAGE plpgsql
    AS $$
DECLARE
  v_attempts integer;
  v_kept integer;
  v_next bigint;
  v_claim bigint;
  v_count integer := cardinality(p_at);
  v_skip integer;
  v_take integer;
BEGIN
  SELECT attempts INTO v_attempts FROM "berth".jobs
    WHERE id = p_job AND state = 'running' AND claimed_by = p_worker AND claim = p_claim
    FOR SHARE;
  IF NOT FOUND THEN RETURN false; END IF;
  INSERT INTO "berth".job_log_heads (job_id, kept, dropped, claim, next)
    VALUES (p_job, 0, 0, p_claim, 0) ON CONFLICT (job_id) DO NOTHING;
  SELECT kept, next, claim INTO v_kept, v_next, v_claim FROM "berth".job_log_heads
    WHERE job_id = p_job FOR UPDATE;
  IF v_claim <> p_claim THEN v_next := 0; END IF;
  v_skip := least(v_count, greatest(0, v_next - p_from))::integer;
  v_take := least(v_count - v_skip, greatest(0, p_cap - v_kept));
  INSERT INTO "berth".job_logs (job_id, seq, attempt, at, level, message)
    SELECT p_job, v_kept + (l.ord - v_skip)::integer, v_attempts, l.at, l.level, l.message
    FROM unnest(p_at, p_level, p_message) WITH ORDINALITY AS l(at, level, message, ord)
    WHERE l.ord > v_skip AND l.ord <= v_skip + v_take;
  UPDATE "berth".job_log_heads SET
    kept = v_kept + v_take,
    dropped = dropped + (v_count - v_skip - v_take),
    claim = p_claim,
    next = greatest(v_next, p_from + v_count)
  WHERE job_id = p_job;
  RETURN true;
END
$$;

--
-- Name: claim_jobs(text[], bigint, integer, text, bigint, text[], json, text[]); Type: FUNCTION; Schema: berth; Owner: -
--

CREATE FUNCTION berth.claim_jobs(p_queues text[], p_now bigint, p_limit integer, p_worker text, p_visibility_ms bigint, p_drop_exhausted text[], p_lapsed_error json, p_names text[]) RETURNS TABLE(seq bigint, id uuid, run_id uuid, name text, queue text, payload text, state text, priority integer, attempts integer, max_attempts integer, run_at bigint, created_at bigint, updated_at bigint, finished_at bigint, claimed_by text, claim bigint, visible_at bigint, last_error text, result text, progress text, idempotency_key text, concurrency_key text, tenant_id text, traceparent text, enqueued_by text, wait_for text, resumed boolean)
    LANGUAGE plpgsql
    SET plan_cache_mode TO 'force_generic_plan'
    SET jit TO 'off'
    SET enable_seqscan TO 'off'
    AS $_$
#variable_conflict use_column
BEGIN
  p_queues := ARRAY(
    SELECT u.queue FROM unnest(p_queues) AS u(queue)
    WHERE NOT EXISTS (SELECT 1 FROM "berth".paused_queues p WHERE p.queue = u.queue));
  IF cardinality(p_queues) = 0 THEN
    RETURN;
  END IF;
  IF p_names IS NULL THEN
    RETURN QUERY 
      WITH RECURSIVE 
      ready AS (
        SELECT r.* FROM unnest($1::text[]) AS q(queue)
        CROSS JOIN LATERAL (
          SELECT j.id, j.seq, j.state, j.priority, j.run_at FROM "berth".jobs j
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
          SELECT j.priority, j.run_at FROM "berth".jobs j
          WHERE j.queue = k.queue AND j.state IN ('delayed', 'suspended')
          ORDER BY j.priority DESC, j.run_at, j.seq
          LIMIT 1
        ) f
        CROSS JOIN LATERAL (
          SELECT count(*) AS n, array_agg(t.id) AS ids, array_agg(t.seq) AS seqs,
            array_agg(t.state) AS states, array_agg(t.run_at) AS run_ats
          FROM (
            SELECT j.id, j.seq, j.state, j.run_at FROM "berth".jobs j
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
          SELECT j.priority, j.run_at FROM "berth".jobs j
          WHERE j.queue = w.queue AND j.state IN ('delayed', 'suspended') AND j.priority < w.priority
          ORDER BY j.priority DESC, j.run_at, j.seq
          LIMIT 1
        ) f
        CROSS JOIN LATERAL (
          SELECT count(*) AS n, array_agg(t.id) AS ids, array_agg(t.seq) AS seqs,
            array_agg(t.state) AS states, array_agg(t.run_at) AS run_ats
          FROM (
            SELECT j.id, j.seq, j.state, j.run_at FROM "berth".jobs j
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
          FROM "berth".jobs j
          WHERE j.queue = q.queue AND j.visible_at <= $2::bigint AND NOT j.lapsed
          ORDER BY j.visible_at
          LIMIT (SELECT $3 + 16::int)
          FOR UPDATE SKIP LOCKED
        ) l
      ), marked AS (
        SELECT m.* FROM unnest($1::text[]) AS q(queue)
        CROSS JOIN LATERAL (
          SELECT j.id, j.seq, j.state, j.priority, j.run_at, false AS final FROM "berth".jobs j
          WHERE j.queue = q.queue AND j.lapsed AND j.state = 'running' AND j.attempts < j.max_attempts
          ORDER BY priority DESC, run_at, seq
          LIMIT (SELECT $3::int)
          FOR UPDATE SKIP LOCKED
        ) m
        UNION ALL
        SELECT m.* FROM unnest($1::text[]) AS q(queue)
        CROSS JOIN LATERAL (
          SELECT j.id, j.seq, j.state, j.priority, j.run_at, true AS final FROM "berth".jobs j
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
        UPDATE "berth".jobs j SET
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
        UPDATE "berth".jobs j SET
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
        UPDATE "berth".jobs j SET
          state = CASE WHEN j.name = ANY($6::text[]) THEN 'failed' ELSE 'dead' END,
          finished_at = $2::bigint,
          claimed_by = NULL,
          visible_at = NULL,
          last_error = $7::json,
          updated_at = $2::bigint
        WHERE j.id = ANY(ARRAY(SELECT id FROM exhausted))
        RETURNING j.seq, j.id, j.run_id, j.name, j.queue, j.payload::text AS payload, j.state, j.priority, j.attempts, j.max_attempts, j.run_at, j.created_at, j.updated_at, j.finished_at, j.claimed_by, j.claim, j.visible_at, j.last_error::text AS last_error, j.result::text AS result, j.progress::text AS progress, j.idempotency_key, j.concurrency_key, j.tenant_id, j.traceparent, j.enqueued_by, j.wait_for
      ), found AS (
        UPDATE "berth".jobs j SET lapsed = true
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
          SELECT j.id, j.seq, j.state, j.priority, j.run_at FROM "berth".jobs j
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
          SELECT j.priority, j.run_at FROM "berth".jobs j
          WHERE j.queue = k.queue AND j.name = k.name AND j.state IN ('delayed', 'suspended')
          ORDER BY j.priority DESC, j.run_at, j.seq
          LIMIT 1
        ) f
        CROSS JOIN LATERAL (
          SELECT count(*) AS n, array_agg(t.id) AS ids, array_agg(t.seq) AS seqs,
            array_agg(t.state) AS states, array_agg(t.run_at) AS run_ats
          FROM (
            SELECT j.id, j.seq, j.state, j.run_at FROM "berth".jobs j
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
          SELECT j.priority, j.run_at FROM "berth".jobs j
          WHERE j.queue = w.queue AND j.name = w.name AND j.state IN ('delayed', 'suspended') AND j.priority < w.priority
          ORDER BY j.priority DESC, j.run_at, j.seq
          LIMIT 1
        ) f
        CROSS JOIN LATERAL (
          SELECT count(*) AS n, array_agg(t.id) AS ids, array_agg(t.seq) AS seqs,
            array_agg(t.state) AS states, array_agg(t.run_at) AS run_ats
          FROM (
            SELECT j.id, j.seq, j.state, j.run_at FROM "berth".jobs j
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
          FROM "berth".jobs j
          WHERE j.queue = q.queue AND j.visible_at <= $2::bigint AND NOT j.lapsed
          ORDER BY j.visible_at
          LIMIT (SELECT $3 + 16::int)
          FOR UPDATE SKIP LOCKED
        ) l
      ), marked AS (
        SELECT m.* FROM unnest($1::text[]) AS q(queue) CROSS JOIN unnest($8::text[]) AS n(name)
        CROSS JOIN LATERAL (
          SELECT j.id, j.seq, j.state, j.priority, j.run_at, false AS final FROM "berth".jobs j
          WHERE j.queue = q.queue AND j.name = n.name AND j.lapsed AND j.state = 'running' AND j.attempts < j.max_attempts
          ORDER BY priority DESC, run_at, seq
          LIMIT (SELECT $3::int)
          FOR UPDATE SKIP LOCKED
        ) m
        UNION ALL
        SELECT m.* FROM unnest($1::text[]) AS q(queue) CROSS JOIN unnest($8::text[]) AS n(name)
        CROSS JOIN LATERAL (
          SELECT j.id, j.seq, j.state, j.priority, j.run_at, true AS final FROM "berth".jobs j
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
        UPDATE "berth".jobs j SET
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
        UPDATE "berth".jobs j SET
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
        UPDATE "berth".jobs j SET
          state = CASE WHEN j.name = ANY($6::text[]) THEN 'failed' ELSE 'dead' END,
          finished_at = $2::bigint,
          claimed_by = NULL,
          visible_at = NULL,
          last_error = $7::json,
          updated_at = $2::bigint
        WHERE j.id = ANY(ARRAY(SELECT id FROM exhausted))
        RETURNING j.seq, j.id, j.run_id, j.name, j.queue, j.payload::text AS payload, j.state, j.priority, j.attempts, j.max_attempts, j.run_at, j.created_at, j.updated_at, j.finished_at, j.claimed_by, j.claim, j.visible_at, j.last_error::text AS last_error, j.result::text AS result, j.progress::text AS progress, j.idempotency_key, j.concurrency_key, j.tenant_id, j.traceparent, j.enqueued_by, j.wait_for
      ), found AS (
        UPDATE "berth".jobs j SET lapsed = true
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
$_$;

--
-- Name: claim_jobs_v2(text[], bigint, integer, text, bigint, text[], json, text[]); Type: FUNCTION; Schema: berth; Owner: -
--

CREATE FUNCTION berth.claim_jobs_v2(p_queues text[], p_now bigint, p_limit integer, p_worker text, p_visibility_ms bigint, p_drop_exhausted text[], p_lapsed_error json, p_names text[]) RETURNS TABLE(seq bigint, id uuid, run_id uuid, name text, queue text, payload text, state text, priority integer, attempts integer, max_attempts integer, run_at bigint, created_at bigint, updated_at bigint, finished_at bigint, claimed_by text, claim bigint, visible_at bigint, last_error text, result text, progress text, idempotency_key text, concurrency_key text, tenant_id text, traceparent text, enqueued_by text, parent_id uuid, wait_for text, resumed boolean)
    LANGUAGE plpgsql
    SET plan_cache_mode TO 'force_generic_plan'
    SET jit TO 'off'
    SET enable_seqscan TO 'off'
    AS $_$
#variable_conflict use_column
BEGIN
  p_queues := ARRAY(
    SELECT u.queue FROM unnest(p_queues) AS u(queue)
    WHERE NOT EXISTS (SELECT 1 FROM "berth".paused_queues p WHERE p.queue = u.queue));
  IF cardinality(p_queues) = 0 THEN
    RETURN;
  END IF;
  IF p_names IS NULL THEN
    RETURN QUERY 
      WITH RECURSIVE 
      ready AS (
        SELECT r.* FROM unnest($1::text[]) AS q(queue)
        CROSS JOIN LATERAL (
          SELECT j.id, j.seq, j.state, j.priority, j.run_at FROM "berth".jobs j
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
          SELECT j.priority, j.run_at FROM "berth".jobs j
          WHERE j.queue = k.queue AND j.state IN ('delayed', 'suspended')
          ORDER BY j.priority DESC, j.run_at, j.seq
          LIMIT 1
        ) f
        CROSS JOIN LATERAL (
          SELECT count(*) AS n, array_agg(t.id) AS ids, array_agg(t.seq) AS seqs,
            array_agg(t.state) AS states, array_agg(t.run_at) AS run_ats
          FROM (
            SELECT j.id, j.seq, j.state, j.run_at FROM "berth".jobs j
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
          SELECT j.priority, j.run_at FROM "berth".jobs j
          WHERE j.queue = w.queue AND j.state IN ('delayed', 'suspended') AND j.priority < w.priority
          ORDER BY j.priority DESC, j.run_at, j.seq
          LIMIT 1
        ) f
        CROSS JOIN LATERAL (
          SELECT count(*) AS n, array_agg(t.id) AS ids, array_agg(t.seq) AS seqs,
            array_agg(t.state) AS states, array_agg(t.run_at) AS run_ats
          FROM (
            SELECT j.id, j.seq, j.state, j.run_at FROM "berth".jobs j
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
          FROM "berth".jobs j
          WHERE j.queue = q.queue AND j.visible_at <= $2::bigint AND NOT j.lapsed
          ORDER BY j.visible_at
          LIMIT (SELECT $3 + 16::int)
          FOR UPDATE SKIP LOCKED
        ) l
      ), marked AS (
        SELECT m.* FROM unnest($1::text[]) AS q(queue)
        CROSS JOIN LATERAL (
          SELECT j.id, j.seq, j.state, j.priority, j.run_at, false AS final FROM "berth".jobs j
          WHERE j.queue = q.queue AND j.lapsed AND j.state = 'running' AND j.attempts < j.max_attempts
          ORDER BY priority DESC, run_at, seq
          LIMIT (SELECT $3::int)
          FOR UPDATE SKIP LOCKED
        ) m
        UNION ALL
        SELECT m.* FROM unnest($1::text[]) AS q(queue)
        CROSS JOIN LATERAL (
          SELECT j.id, j.seq, j.state, j.priority, j.run_at, true AS final FROM "berth".jobs j
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
        UPDATE "berth".jobs j SET
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
        UPDATE "berth".jobs j SET
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
        UPDATE "berth".jobs j SET
          state = CASE WHEN j.name = ANY($6::text[]) THEN 'failed' ELSE 'dead' END,
          finished_at = $2::bigint,
          claimed_by = NULL,
          visible_at = NULL,
          last_error = $7::json,
          updated_at = $2::bigint
        WHERE j.id = ANY(ARRAY(SELECT id FROM exhausted))
        RETURNING j.seq, j.id, j.run_id, j.name, j.queue, j.payload::text AS payload, j.state, j.priority, j.attempts, j.max_attempts, j.run_at, j.created_at, j.updated_at, j.finished_at, j.claimed_by, j.claim, j.visible_at, j.last_error::text AS last_error, j.result::text AS result, j.progress::text AS progress, j.idempotency_key, j.concurrency_key, j.tenant_id, j.traceparent, j.enqueued_by, j.parent_id, j.wait_for
      ), found AS (
        UPDATE "berth".jobs j SET lapsed = true
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
          SELECT j.id, j.seq, j.state, j.priority, j.run_at FROM "berth".jobs j
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
          SELECT j.priority, j.run_at FROM "berth".jobs j
          WHERE j.queue = k.queue AND j.name = k.name AND j.state IN ('delayed', 'suspended')
          ORDER BY j.priority DESC, j.run_at, j.seq
          LIMIT 1
        ) f
        CROSS JOIN LATERAL (
          SELECT count(*) AS n, array_agg(t.id) AS ids, array_agg(t.seq) AS seqs,
            array_agg(t.state) AS states, array_agg(t.run_at) AS run_ats
          FROM (
            SELECT j.id, j.seq, j.state, j.run_at FROM "berth".jobs j
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
          SELECT j.priority, j.run_at FROM "berth".jobs j
          WHERE j.queue = w.queue AND j.name = w.name AND j.state IN ('delayed', 'suspended') AND j.priority < w.priority
          ORDER BY j.priority DESC, j.run_at, j.seq
          LIMIT 1
        ) f
        CROSS JOIN LATERAL (
          SELECT count(*) AS n, array_agg(t.id) AS ids, array_agg(t.seq) AS seqs,
            array_agg(t.state) AS states, array_agg(t.run_at) AS run_ats
          FROM (
            SELECT j.id, j.seq, j.state, j.run_at FROM "berth".jobs j
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
          FROM "berth".jobs j
          WHERE j.queue = q.queue AND j.visible_at <= $2::bigint AND NOT j.lapsed
          ORDER BY j.visible_at
          LIMIT (SELECT $3 + 16::int)
          FOR UPDATE SKIP LOCKED
        ) l
      ), marked AS (
        SELECT m.* FROM unnest($1::text[]) AS q(queue) CROSS JOIN unnest($8::text[]) AS n(name)
        CROSS JOIN LATERAL (
          SELECT j.id, j.seq, j.state, j.priority, j.run_at, false AS final FROM "berth".jobs j
          WHERE j.queue = q.queue AND j.name = n.name AND j.lapsed AND j.state = 'running' AND j.attempts < j.max_attempts
          ORDER BY priority DESC, run_at, seq
          LIMIT (SELECT $3::int)
          FOR UPDATE SKIP LOCKED
        ) m
        UNION ALL
        SELECT m.* FROM unnest($1::text[]) AS q(queue) CROSS JOIN unnest($8::text[]) AS n(name)
        CROSS JOIN LATERAL (
          SELECT j.id, j.seq, j.state, j.priority, j.run_at, true AS final FROM "berth".jobs j
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
        UPDATE "berth".jobs j SET
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
        UPDATE "berth".jobs j SET
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
        UPDATE "berth".jobs j SET
          state = CASE WHEN j.name = ANY($6::text[]) THEN 'failed' ELSE 'dead' END,
          finished_at = $2::bigint,
          claimed_by = NULL,
          visible_at = NULL,
          last_error = $7::json,
          updated_at = $2::bigint
        WHERE j.id = ANY(ARRAY(SELECT id FROM exhausted))
        RETURNING j.seq, j.id, j.run_id, j.name, j.queue, j.payload::text AS payload, j.state, j.priority, j.attempts, j.max_attempts, j.run_at, j.created_at, j.updated_at, j.finished_at, j.claimed_by, j.claim, j.visible_at, j.last_error::text AS last_error, j.result::text AS result, j.progress::text AS progress, j.idempotency_key, j.concurrency_key, j.tenant_id, j.traceparent, j.enqueued_by, j.parent_id, j.wait_for
      ), found AS (
        UPDATE "berth".jobs j SET lapsed = true
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
$_$;

--
-- Name: cut_utf8(text, integer); Type: FUNCTION; Schema: berth; Owner: -
--

CREATE FUNCTION berth.cut_utf8(p_text text, p_bytes integer) RETURNS text
    LANGUAGE plpgsql IMMUTABLE
    AS $$
DECLARE
  v text := left(p_text, p_bytes);
BEGIN
  WHILE octet_length(v) > p_bytes LOOP
    v := left(v, length(v) - (octet_length(v) - p_bytes + 3) / 4);
  END LOOP;
  RETURN v;
END
$$;

--
-- Name: jobs_listed_add(); Type: FUNCTION; Schema: berth; Owner: -
--

CREATE FUNCTION berth.jobs_listed_add() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  INSERT INTO "berth".jobs_listed (created_at, seq, id) SELECT created_at, seq, id FROM added;
  RETURN NULL;
END
$$;

--
-- Name: jobs_listed_drop(); Type: FUNCTION; Schema: berth; Owner: -
--

CREATE FUNCTION berth.jobs_listed_drop() RETURNS trigger
    LANGUAGE plpgsql
    SET enable_hashjoin TO 'off'
    SET enable_mergejoin TO 'off'
    AS $$
BEGIN
  DELETE FROM "berth".jobs_listed l USING removed r
  WHERE l.created_at = r.created_at AND l.seq = r.seq;
  RETURN NULL;
END
$$;

--
-- Name: keep_attempt_error(); Type: FUNCTION; Schema: berth; Owner: -
--

CREATE FUNCTION berth.keep_attempt_error() RETURNS trigger
    LANGUAGE plpgsql
    SET enable_seqscan TO 'off'
    AS $$
BEGIN
  UPDATE "berth".job_attempts a SET error = json_strip_nulls(json_build_object(
      'code', NEW.last_error->>'code',
      'message', "berth".cut_utf8(coalesce(NEW.last_error->>'message', ''), 1024),
      'stack', "berth".cut_utf8(NEW.last_error->>'stack', 4096)))
  WHERE a.job_id = OLD.id AND a.claim = OLD.claim AND a.outcome = 'cancelled';
  RETURN NULL;
END
$$;

--
-- Name: lifecycle_horizon(integer); Type: FUNCTION; Schema: berth; Owner: -
--

CREATE FUNCTION berth.lifecycle_horizon(p_wait_ms integer) RETURNS xid8
    LANGUAGE plpgsql
    AS $$
DECLARE
  v_own xid8 := pg_current_xact_id();
  v_snapshot pg_snapshot := pg_current_snapshot();
  v_bound bigint := greatest(v_own, pg_snapshot_xmax(v_snapshot))::text::bigint;
  v_key bigint := hashtextextended('"berth"' || chr(1) || 'lifecycle horizon', 0);
  v_until timestamptz := clock_timestamp() + p_wait_ms * interval '1 millisecond';
  v_writers xid[];
  v_oldest xid8;
BEGIN
  -- A session lock, held only around the write: readers never wait on each other's waits.
  PERFORM pg_advisory_lock(v_key);
  BEGIN
    PERFORM setval('"berth".lifecycle_horizon', v_bound)
    FROM "berth".lifecycle_horizon h WHERE h.last_value < v_bound;
  EXCEPTION WHEN OTHERS OR query_canceled THEN
    PERFORM pg_advisory_unlock(v_key);
    RAISE;
  END;
  PERFORM pg_advisory_unlock(v_key);
  v_writers := ARRAY(
    SELECT t.transactionid FROM pg_locks r
    JOIN pg_locks t ON t.virtualtransaction = r.virtualtransaction
    WHERE r.locktype = 'relation' AND r.relation = '"berth".jobs'::regclass
      AND r.database = (SELECT d.oid FROM pg_database d WHERE d.datname = current_database())
      AND t.locktype = 'transactionid' AND t.mode = 'ExclusiveLock');
  LOOP
    SELECT min(x) INTO v_oldest FROM pg_snapshot_xip(v_snapshot) AS x
    WHERE x::xid = ANY (v_writers) AND pg_xact_status(x) = 'in progress';
    IF v_oldest IS NULL THEN
      RETURN pg_snapshot_xmax(v_snapshot);
    END IF;
    EXIT WHEN clock_timestamp() >= v_until;
    PERFORM pg_sleep(0.001);
  END LOOP;
  RETURN v_oldest;
END
$$;

--
-- Name: lifecycle_stamp(); Type: FUNCTION; Schema: berth; Owner: -
--

CREATE FUNCTION berth.lifecycle_stamp() RETURNS xid8
    LANGUAGE sql
    AS $$
  SELECT greatest(pg_current_xact_id(),
    (pg_snapshot_xmax(pg_current_snapshot())::text::numeric - 1)::text::xid8,
    (SELECT h.last_value FROM "berth".lifecycle_horizon h)::text::xid8)
$$;

--
-- Name: lifecycle_trim(integer, integer); Type: FUNCTION; Schema: berth; Owner: -
--

CREATE FUNCTION berth.lifecycle_trim(p_keep integer, p_limit integer) RETURNS bigint
    LANGUAGE plpgsql
    AS $$
DECLARE
  v_edge record;
  v_row record;
  v_budget bigint := p_limit;
  v_live bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('"berth"' || chr(1) || 'lifecycle trim', 0));
  SELECT c.stamp, c.id, c.seen INTO v_edge FROM (
    SELECT b.stamp, b.id, sum(b.events - b.kept_from + 1) OVER (
        ORDER BY b.stamp DESC, b.id DESC ROWS UNBOUNDED PRECEDING) AS seen
    FROM "berth".lifecycle_batches b
    ORDER BY b.stamp DESC, b.id DESC) c
  WHERE c.seen >= p_keep
  LIMIT 1;
  IF NOT FOUND THEN
    RETURN 0;
  END IF;
  FOR v_row IN
    SELECT b.stamp, b.id, b.events, b.kept_from FROM "berth".lifecycle_batches b
    WHERE (b.stamp, b.id) <= (v_edge.stamp, v_edge.id)
    ORDER BY b.stamp, b.id
  LOOP
    EXIT WHEN v_budget = 0;
    IF v_row.stamp = v_edge.stamp AND v_row.id = v_edge.id THEN
      v_live := least(v_budget, v_edge.seen - p_keep);
    ELSE
      v_live := least(v_budget, v_row.events - v_row.kept_from + 1);
    END IF;
    IF v_live = v_row.events - v_row.kept_from + 1 THEN
      DELETE FROM "berth".lifecycle_batches b WHERE b.stamp = v_row.stamp AND b.id = v_row.id;
    ELSIF v_live > 0 THEN
      UPDATE "berth".lifecycle_batches b SET kept_from = b.kept_from + v_live
      WHERE b.stamp = v_row.stamp AND b.id = v_row.id;
    END IF;
    v_budget := v_budget - v_live;
  END LOOP;
  RETURN p_limit - v_budget;
END
$$;

--
-- Name: publish_event(uuid, text, json, bigint, bigint, text, integer); Type: FUNCTION; Schema: berth; Owner: -
--

CREATE FUNCTION berth.publish_event(p_id uuid, p_name text, p_payload json, p_now bigint, p_expires bigint, p_channel text, p_batch integer) RETURNS TABLE(id uuid, name text, payload text, published_at bigint, expires_at bigint, woken bigint)
    LANGUAGE plpgsql
    AS $$
#variable_conflict use_column
DECLARE
  after_seq bigint := 0;
  last_seq bigint;
  moved bigint;
  total bigint := 0;
  notified bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('"berth"' || chr(1) || p_name, 0));
  INSERT INTO "berth".events AS e (id, name, payload, published_at, expires_at)
  VALUES (p_id, p_name, p_payload, p_now, p_expires);
  LOOP
    WITH batch AS (
      SELECT j.id, j.seq FROM "berth".jobs j
      WHERE j.state = 'suspended' AND j.wait_for = p_name AND j.seq > after_seq
      ORDER BY j.seq
      LIMIT p_batch
    ), resumed AS (
      UPDATE "berth".jobs j SET run_at = p_now, updated_at = p_now
      FROM batch b
      WHERE j.id = b.id AND j.state = 'suspended' AND j.wait_for = p_name
      RETURNING j.queue
    ), woke AS (
      SELECT pg_notify(p_channel, q.queue) FROM (SELECT DISTINCT queue FROM resumed) q
    )
    SELECT (SELECT max(seq) FROM batch), (SELECT count(*) FROM resumed),
      (SELECT count(*) FROM woke)
    INTO last_seq, moved, notified;
    total := total + moved;
    EXIT WHEN last_seq IS NULL;
    after_seq := last_seq;
  END LOOP;
  RETURN QUERY SELECT p_id, p_name, p_payload::text, p_now, p_expires, total;
END
$$;

--
-- Name: record_attempt(); Type: FUNCTION; Schema: berth; Owner: -
--

CREATE FUNCTION berth.record_attempt() RETURNS trigger
    LANGUAGE plpgsql
    SET enable_seqscan TO 'off'
    AS $$
DECLARE
  v_seq integer := 1;
  v_outcome text;
  v_error json;
BEGIN
  IF NEW.claim <> OLD.claim THEN
    v_outcome := 'lapsed';
  ELSE
    v_outcome := CASE NEW.state
      WHEN 'completed' THEN 'completed'
      WHEN 'ready' THEN 'retried'
      WHEN 'delayed' THEN 'retried'
      WHEN 'suspended' THEN 'suspended'
      WHEN 'cancelled' THEN 'cancelled'
      ELSE CASE WHEN NEW.last_error->>'code' = 'LEASE_LAPSED' THEN 'lapsed' ELSE 'failed' END
    END;
    IF NEW.state IN ('ready', 'delayed', 'dead', 'failed') AND NEW.last_error IS NOT NULL THEN
      v_error := json_strip_nulls(json_build_object(
        'code', NEW.last_error->>'code',
        'message', "berth".cut_utf8(coalesce(NEW.last_error->>'message', ''), 1024),
        'stack', "berth".cut_utf8(NEW.last_error->>'stack', 4096)));
    END IF;
  END IF;
  IF OLD.claim > 1 THEN
    SELECT coalesce(max(a.seq), 0) + 1 INTO v_seq FROM "berth".job_attempts a WHERE a.job_id = OLD.id;
  END IF;
  INSERT INTO "berth".job_attempts
    (job_id, seq, attempt, claim, worker, claimed_at, ended_at, outcome, error)
  VALUES (OLD.id, v_seq, OLD.attempts, OLD.claim, coalesce(OLD.claimed_by, ''),
    coalesce(OLD.claimed_at, OLD.updated_at), NEW.updated_at, v_outcome, v_error);
  IF v_seq > 10 THEN
    DELETE FROM "berth".job_attempts a WHERE a.job_id = OLD.id AND a.seq > 1 AND a.seq <= v_seq - 9;
  END IF;
  RETURN NULL;
END
$$;

--
-- Name: release_slot(text, text, bigint, integer); Type: FUNCTION; Schema: berth; Owner: -
--

CREATE FUNCTION berth.release_slot(p_key text, p_holder text, p_now bigint, p_sweep integer) RETURNS boolean
    LANGUAGE plpgsql
    AS $$
DECLARE
  v_held integer;
BEGIN
  PERFORM "berth".sweep_slot_keys(p_key, p_now, p_sweep);
  SELECT held INTO v_held FROM "berth".slot_keys WHERE key = p_key FOR UPDATE;
  IF NOT FOUND THEN RETURN false; END IF;
  DELETE FROM "berth".slot_holders WHERE key = p_key AND holder = p_holder AND expires_at > p_now;
  IF NOT FOUND THEN RETURN false; END IF;
  IF v_held <= 1 THEN
    DELETE FROM "berth".slot_keys WHERE key = p_key;
  ELSE
    UPDATE "berth".slot_keys SET held = v_held - 1 WHERE key = p_key;
  END IF;
  RETURN true;
END
$$;

--
-- Name: stamp_claim(); Type: FUNCTION; Schema: berth; Owner: -
--

CREATE FUNCTION berth.stamp_claim() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  NEW.claimed_at := NEW.updated_at;
  RETURN NEW;
END
$$;

--
-- Name: start_backfill(uuid, text, text, jsonb, uuid, integer, bigint, integer); Type: FUNCTION; Schema: berth; Owner: -
--

CREATE FUNCTION berth.start_backfill(p_run uuid, p_name text, p_tenant text, p_cursor jsonb, p_job uuid, p_max_active integer, p_now bigint, p_kept integer) RETURNS TABLE(started boolean, run_id uuid, name text, tenant_id text, status text, cursor text, passes bigint, rows_done bigint, job_id uuid, started_at bigint, updated_at bigint, finished_at bigint, last_error text)
    LANGUAGE plpgsql
    AS $$
#variable_conflict use_column
DECLARE
  v_active "berth".backfill_runs[];
BEGIN
  -- 0x4246494C ('BFIL'): the lock class of backfill starts (migrate's is 'BERT').
  PERFORM pg_advisory_xact_lock(1111902540,
    hashtext(jsonb_build_array('"berth"', p_name, p_tenant)::text));
  RETURN QUERY SELECT true, r.run_id, r.name, r.tenant_id, r.status, r.cursor::text, r.passes, r.rows_done, r.job_id, r.started_at, r.updated_at, r.finished_at, r.last_error
    FROM "berth".backfill_runs r WHERE r.run_id = p_run;
  IF FOUND THEN RETURN; END IF;
  -- Read once: a cancel landing meanwhile cannot make the refusal name fewer runs than it counted.
  SELECT array_agg(r ORDER BY r.started_at, r.run_id) INTO v_active FROM "berth".backfill_runs r
    WHERE r.name = p_name AND coalesce(r.tenant_id, '') = coalesce(p_tenant, '')
      AND r.status IN ('running', 'paused');
  IF coalesce(cardinality(v_active), 0) >= p_max_active THEN
    RETURN QUERY SELECT false, a.run_id, a.name, a.tenant_id, a.status, a.cursor::text, a.passes, a.rows_done, a.job_id, a.started_at, a.updated_at, a.finished_at, a.last_error
      FROM unnest(v_active) WITH ORDINALITY AS a ORDER BY a.ordinality;
    RETURN;
  END IF;
  -- A start of another name under this runId may hold it: the stored run is the answer then.
  INSERT INTO "berth".backfill_runs (run_id, name, tenant_id, status, cursor, passes, rows_done,
      job_id, started_at, updated_at)
    VALUES (p_run, p_name, p_tenant, 'running', p_cursor, 0, 0, p_job, p_now, p_now)
    ON CONFLICT (run_id) DO NOTHING;
  IF FOUND THEN
    DELETE FROM "berth".backfill_runs WHERE run_id IN (
      SELECT r.run_id FROM "berth".backfill_runs r
      WHERE r.name = p_name AND coalesce(r.tenant_id, '') = coalesce(p_tenant, '')
        AND r.status IN ('completed', 'failed', 'cancelled')
      ORDER BY r.started_at DESC, r.run_id DESC
      OFFSET p_kept);
  END IF;
  RETURN QUERY SELECT true, r.run_id, r.name, r.tenant_id, r.status, r.cursor::text, r.passes, r.rows_done, r.job_id, r.started_at, r.updated_at, r.finished_at, r.last_error
    FROM "berth".backfill_runs r WHERE r.run_id = p_run;
END
$$;

--
-- Name: suspend_job(uuid, text, bigint, bigint, bigint, text, bigint, text); Type: FUNCTION; Schema: berth; Owner: -
--

CREATE FUNCTION berth.suspend_job(p_id uuid, p_worker text, p_claim bigint, p_now bigint, p_until bigint, p_wait_for text, p_since bigint, p_channel text) RETURNS TABLE(landed integer, woke bigint)
    LANGUAGE plpgsql
    AS $$
#variable_conflict use_column
BEGIN
  IF p_wait_for IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock(hashtextextended('"berth"' || chr(1) || p_wait_for, 0));
  END IF;
  RETURN QUERY
  WITH moved AS (
    UPDATE "berth".jobs j SET
      state = 'suspended',
      run_at = CASE
        WHEN p_wait_for IS NOT NULL AND p_since IS NOT NULL AND EXISTS (
          SELECT 1 FROM "berth".events e
          WHERE e.name = p_wait_for AND e.published_at >= p_since AND e.expires_at > p_now)
        THEN p_now ELSE p_until END,
      wait_for = p_wait_for,
      claimed_by = NULL, visible_at = NULL, updated_at = p_now
    WHERE j.id = p_id AND j.state = 'running' AND j.claimed_by = p_worker AND j.claim = p_claim
    RETURNING j.queue, j.run_at
  ), notified AS (SELECT pg_notify(p_channel, m.queue) FROM moved m WHERE m.run_at <= p_now)
  SELECT 1, (SELECT count(*) FROM notified) FROM moved;
END
$$;

--
-- Name: sweep_slot_keys(text, bigint, integer); Type: FUNCTION; Schema: berth; Owner: -
--

CREATE FUNCTION berth.sweep_slot_keys(p_key text, p_now bigint, p_sweep integer) RETURNS void
    LANGUAGE plpgsql
    AS $$
DECLARE
  v_key text;
BEGIN
  FOR v_key IN
    SELECT key FROM "berth".slot_keys WHERE expires_at <= p_now AND key <> p_key
    ORDER BY expires_at LIMIT p_sweep FOR UPDATE SKIP LOCKED
  LOOP
    DELETE FROM "berth".slot_holders WHERE key = v_key;
    DELETE FROM "berth".slot_keys WHERE key = v_key;
  END LOOP;
END
$$;

--
-- Name: tell_lifecycle(); Type: FUNCTION; Schema: berth; Owner: -
--

CREATE FUNCTION berth.tell_lifecycle() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
  v_stamp xid8 := "berth".lifecycle_stamp();
BEGIN
  IF strpos(current_query(), 'claim_jobs') > 0 THEN
    INSERT INTO "berth".lifecycle_batches
      (stamp, events, job_ids, types, names, queues, tenant_ids, attempts, ats)
    SELECT v_stamp, count(*), array_agg(n.id), array_agg('stalled'::text), array_agg(n.name),
      array_agg(n.queue), array_agg(n.tenant_id), array_agg(o.attempts), array_agg(n.updated_at)
    FROM lifecycle_old o JOIN lifecycle_new n ON n.id = o.id
    WHERE o.state = 'running' AND (n.claim <> o.claim OR n.state IN ('dead', 'failed'))
    HAVING count(*) > 0;
  END IF;
  INSERT INTO "berth".lifecycle_batches
    (stamp, events, job_ids, types, names, queues, tenant_ids, attempts, ats)
  SELECT v_stamp, count(*), array_agg(e.id), array_agg(e.type), array_agg(e.name),
    array_agg(e.queue), array_agg(e.tenant_id), array_agg(e.attempts), array_agg(e.updated_at)
  FROM (
    SELECT n.id, n.name, n.queue, n.tenant_id, n.attempts, n.updated_at, CASE
        WHEN n.claim <> o.claim THEN 'active'
        WHEN o.state = 'running' THEN CASE n.state
          WHEN 'completed' THEN 'completed'
          WHEN 'ready' THEN 'retried'
          WHEN 'delayed' THEN 'retried'
          WHEN 'suspended' THEN 'suspended'
          WHEN 'cancelled' THEN 'cancelled'
          WHEN 'dead' THEN 'dead'
          WHEN 'failed' THEN 'failed'
          END
        WHEN n.state = 'cancelled' AND o.state IN ('ready', 'delayed', 'suspended')
          THEN 'cancelled'
        END AS type
    FROM lifecycle_old o JOIN lifecycle_new n ON n.id = o.id
    WHERE n.claim <> o.claim OR n.state <> o.state
  ) e
  WHERE e.type IS NOT NULL
  HAVING count(*) > 0;
  RETURN NULL;
END
$$;

--
-- Name: tell_progress(); Type: FUNCTION; Schema: berth; Owner: -
--

CREATE FUNCTION berth.tell_progress() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  INSERT INTO "berth".lifecycle_batches
    (stamp, events, job_ids, types, names, queues, tenant_ids, attempts, ats)
  VALUES ("berth".lifecycle_stamp(), 1, ARRAY[NEW.id], ARRAY['progress'], ARRAY[NEW.name],
    ARRAY[NEW.queue], ARRAY[NEW.tenant_id], ARRAY[NEW.attempts], ARRAY[NEW.updated_at]);
  RETURN NULL;
END
$$;

--
-- Name: backfill_runs; Type: TABLE; Schema: berth; Owner: -
--

CREATE TABLE berth.backfill_runs (
    run_id uuid NOT NULL,
    name text NOT NULL,
    tenant_id text,
    status text NOT NULL,
    cursor jsonb NOT NULL,
    passes bigint NOT NULL,
    rows_done bigint NOT NULL,
    job_id uuid NOT NULL,
    started_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    finished_at bigint,
    last_error text,
    CONSTRAINT backfill_runs_status_check CHECK ((status = ANY (ARRAY['running'::text, 'paused'::text, 'completed'::text, 'failed'::text, 'cancelled'::text])))
);

--
-- Name: events; Type: TABLE; Schema: berth; Owner: -
--

CREATE TABLE berth.events (
    seq bigint NOT NULL,
    id uuid NOT NULL,
    name text NOT NULL,
    payload json NOT NULL,
    published_at bigint NOT NULL,
    expires_at bigint NOT NULL
);

--
-- Name: events_seq_seq; Type: SEQUENCE; Schema: berth; Owner: -
--

ALTER TABLE berth.events ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME berth.events_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: job_attempts; Type: TABLE; Schema: berth; Owner: -
--

CREATE TABLE berth.job_attempts (
    job_id uuid NOT NULL,
    seq integer NOT NULL,
    attempt integer NOT NULL,
    claim bigint NOT NULL,
    worker text NOT NULL,
    claimed_at bigint NOT NULL,
    ended_at bigint NOT NULL,
    outcome text NOT NULL,
    error json
);

--
-- Name: job_log_heads; Type: TABLE; Schema: berth; Owner: -
--

CREATE TABLE berth.job_log_heads (
    job_id uuid NOT NULL,
    kept integer NOT NULL,
    dropped bigint NOT NULL,
    claim bigint NOT NULL,
    next bigint NOT NULL
);

--
-- Name: job_logs; Type: TABLE; Schema: berth; Owner: -
--

CREATE TABLE berth.job_logs (
    job_id uuid NOT NULL,
    seq integer NOT NULL,
    attempt integer NOT NULL,
    at bigint NOT NULL,
    level text NOT NULL,
    message text NOT NULL
);

--
-- Name: jobs; Type: TABLE; Schema: berth; Owner: -
--

CREATE TABLE berth.jobs (
    seq bigint NOT NULL,
    id uuid NOT NULL,
    run_id uuid NOT NULL,
    name text NOT NULL,
    queue text NOT NULL,
    payload json NOT NULL,
    state text NOT NULL,
    priority integer NOT NULL,
    attempts integer NOT NULL,
    max_attempts integer NOT NULL,
    run_at bigint NOT NULL,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    finished_at bigint,
    claimed_by text,
    claim bigint NOT NULL,
    visible_at bigint,
    last_error json,
    result json,
    progress json,
    idempotency_key text,
    concurrency_key text,
    tenant_id text,
    traceparent text,
    enqueued_by text,
    wait_for text,
    lapsed boolean DEFAULT false NOT NULL,
    claimed_at bigint,
    parent_id uuid,
    CONSTRAINT jobs_state_check CHECK ((state = ANY (ARRAY['ready'::text, 'delayed'::text, 'running'::text, 'suspended'::text, 'completed'::text, 'failed'::text, 'dead'::text, 'cancelled'::text])))
);

--
-- Name: jobs_listed; Type: TABLE; Schema: berth; Owner: -
--

CREATE TABLE berth.jobs_listed (
    created_at bigint NOT NULL,
    seq bigint NOT NULL,
    id uuid NOT NULL
);

--
-- Name: jobs_seq_seq; Type: SEQUENCE; Schema: berth; Owner: -
--

ALTER TABLE berth.jobs ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME berth.jobs_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: leases; Type: TABLE; Schema: berth; Owner: -
--

CREATE TABLE berth.leases (
    name text NOT NULL,
    holder text NOT NULL,
    expires_at bigint NOT NULL
);

--
-- Name: lifecycle_batches; Type: TABLE; Schema: berth; Owner: -
--

CREATE TABLE berth.lifecycle_batches (
    stamp xid8 NOT NULL,
    id bigint NOT NULL,
    events integer NOT NULL,
    kept_from integer DEFAULT 1 NOT NULL,
    job_ids uuid[] NOT NULL,
    types text[] NOT NULL,
    names text[] NOT NULL,
    queues text[] NOT NULL,
    tenant_ids text[] NOT NULL,
    attempts integer[] NOT NULL,
    ats bigint[] NOT NULL
);

--
-- Name: lifecycle_batches_id_seq; Type: SEQUENCE; Schema: berth; Owner: -
--

ALTER TABLE berth.lifecycle_batches ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME berth.lifecycle_batches_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: lifecycle_horizon; Type: SEQUENCE; Schema: berth; Owner: -
--

CREATE SEQUENCE berth.lifecycle_horizon
    START WITH 0
    INCREMENT BY 1
    MINVALUE 0
    NO MAXVALUE
    CACHE 1;

--
-- Name: marks; Type: TABLE; Schema: berth; Owner: -
--

CREATE TABLE berth.marks (
    name text NOT NULL,
    value bigint NOT NULL
);

--
-- Name: migrations; Type: TABLE; Schema: berth; Owner: -
--

CREATE TABLE berth.migrations (
    version integer NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: paused_queues; Type: TABLE; Schema: berth; Owner: -
--

CREATE TABLE berth.paused_queues (
    queue text NOT NULL,
    paused_at bigint NOT NULL
);

--
-- Name: schedules; Type: TABLE; Schema: berth; Owner: -
--

CREATE TABLE berth.schedules (
    tenant_id text NOT NULL COLLATE pg_catalog."C",
    name text NOT NULL COLLATE pg_catalog."C",
    tenant_order bytea NOT NULL,
    name_order bytea NOT NULL,
    cron text NOT NULL,
    timezone text,
    job text NOT NULL,
    queue text,
    payload json NOT NULL,
    priority integer,
    max_attempts integer,
    paused boolean NOT NULL,
    next_at bigint NOT NULL,
    revision bigint NOT NULL,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL
);

--
-- Name: slot_holders; Type: TABLE; Schema: berth; Owner: -
--

CREATE TABLE berth.slot_holders (
    key text NOT NULL,
    holder text NOT NULL,
    expires_at bigint NOT NULL
);

--
-- Name: slot_keys; Type: TABLE; Schema: berth; Owner: -
--

CREATE TABLE berth.slot_keys (
    key text NOT NULL,
    held integer NOT NULL,
    expires_at bigint NOT NULL
);

--
-- Name: slots; Type: TABLE; Schema: berth; Owner: -
--

CREATE TABLE berth.slots (
    key text NOT NULL,
    holders jsonb NOT NULL,
    expires_at bigint NOT NULL
);

--
-- Name: steps; Type: TABLE; Schema: berth; Owner: -
--

CREATE TABLE berth.steps (
    seq bigint NOT NULL,
    run_id uuid NOT NULL,
    name text NOT NULL,
    status text NOT NULL,
    output json,
    error json,
    attempts integer NOT NULL,
    wake_at bigint,
    event_name text,
    event_id uuid,
    started_at bigint NOT NULL,
    updated_at bigint NOT NULL
);

--
-- Name: steps_seq_seq; Type: SEQUENCE; Schema: berth; Owner: -
--

ALTER TABLE berth.steps ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME berth.steps_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: backfill_runs backfill_runs_pkey; Type: CONSTRAINT; Schema: berth; Owner: -
--

ALTER TABLE ONLY berth.backfill_runs
    ADD CONSTRAINT backfill_runs_pkey PRIMARY KEY (run_id);

--
-- Name: events events_id_key; Type: CONSTRAINT; Schema: berth; Owner: -
--

ALTER TABLE ONLY berth.events
    ADD CONSTRAINT events_id_key UNIQUE (id);

--
-- Name: events events_pkey; Type: CONSTRAINT; Schema: berth; Owner: -
--

ALTER TABLE ONLY berth.events
    ADD CONSTRAINT events_pkey PRIMARY KEY (seq);

--
-- Name: job_attempts job_attempts_pkey; Type: CONSTRAINT; Schema: berth; Owner: -
--

ALTER TABLE ONLY berth.job_attempts
    ADD CONSTRAINT job_attempts_pkey PRIMARY KEY (job_id, seq);

--
-- Name: job_log_heads job_log_heads_pkey; Type: CONSTRAINT; Schema: berth; Owner: -
--

ALTER TABLE ONLY berth.job_log_heads
    ADD CONSTRAINT job_log_heads_pkey PRIMARY KEY (job_id);

--
-- Name: job_logs job_logs_pkey; Type: CONSTRAINT; Schema: berth; Owner: -
--

ALTER TABLE ONLY berth.job_logs
    ADD CONSTRAINT job_logs_pkey PRIMARY KEY (job_id, seq);

--
-- Name: jobs jobs_id_pkey; Type: CONSTRAINT; Schema: berth; Owner: -
--

ALTER TABLE ONLY berth.jobs
    ADD CONSTRAINT jobs_id_pkey PRIMARY KEY (id);

--
-- Name: jobs_listed jobs_listed_pkey; Type: CONSTRAINT; Schema: berth; Owner: -
--

ALTER TABLE ONLY berth.jobs_listed
    ADD CONSTRAINT jobs_listed_pkey PRIMARY KEY (created_at, seq);

--
-- Name: leases leases_pkey; Type: CONSTRAINT; Schema: berth; Owner: -
--

ALTER TABLE ONLY berth.leases
    ADD CONSTRAINT leases_pkey PRIMARY KEY (name);

--
-- Name: lifecycle_batches lifecycle_batches_pkey; Type: CONSTRAINT; Schema: berth; Owner: -
--

ALTER TABLE ONLY berth.lifecycle_batches
    ADD CONSTRAINT lifecycle_batches_pkey PRIMARY KEY (stamp, id);

--
-- Name: marks marks_pkey; Type: CONSTRAINT; Schema: berth; Owner: -
--

ALTER TABLE ONLY berth.marks
    ADD CONSTRAINT marks_pkey PRIMARY KEY (name);

--
-- Name: migrations migrations_pkey; Type: CONSTRAINT; Schema: berth; Owner: -
--

ALTER TABLE ONLY berth.migrations
    ADD CONSTRAINT migrations_pkey PRIMARY KEY (version);

--
-- Name: paused_queues paused_queues_pkey; Type: CONSTRAINT; Schema: berth; Owner: -
--

ALTER TABLE ONLY berth.paused_queues
    ADD CONSTRAINT paused_queues_pkey PRIMARY KEY (queue);

--
-- Name: schedules schedules_pkey; Type: CONSTRAINT; Schema: berth; Owner: -
--

ALTER TABLE ONLY berth.schedules
    ADD CONSTRAINT schedules_pkey PRIMARY KEY (tenant_id, name);

--
-- Name: slot_holders slot_holders_pkey; Type: CONSTRAINT; Schema: berth; Owner: -
--

ALTER TABLE ONLY berth.slot_holders
    ADD CONSTRAINT slot_holders_pkey PRIMARY KEY (key, holder);

--
-- Name: slot_keys slot_keys_pkey; Type: CONSTRAINT; Schema: berth; Owner: -
--

ALTER TABLE ONLY berth.slot_keys
    ADD CONSTRAINT slot_keys_pkey PRIMARY KEY (key);

--
-- Name: slots slots_pkey; Type: CONSTRAINT; Schema: berth; Owner: -
--

ALTER TABLE ONLY berth.slots
    ADD CONSTRAINT slots_pkey PRIMARY KEY (key);

--
-- Name: steps steps_pkey; Type: CONSTRAINT; Schema: berth; Owner: -
--

ALTER TABLE ONLY berth.steps
    ADD CONSTRAINT steps_pkey PRIMARY KEY (seq);

--
-- Name: steps steps_run_id_name_key; Type: CONSTRAINT; Schema: berth; Owner: -
--

ALTER TABLE ONLY berth.steps
    ADD CONSTRAINT steps_run_id_name_key UNIQUE (run_id, name);

--
-- Name: backfill_runs_holder_idx; Type: INDEX; Schema: berth; Owner: -
--

CREATE INDEX backfill_runs_holder_idx ON berth.backfill_runs USING btree (name, COALESCE(tenant_id, ''::text), started_at, run_id);

--
-- Name: backfill_runs_started_idx; Type: INDEX; Schema: berth; Owner: -
--

CREATE INDEX backfill_runs_started_idx ON berth.backfill_runs USING btree (started_at, run_id);

--
-- Name: events_expiry_seq_idx; Type: INDEX; Schema: berth; Owner: -
--

CREATE INDEX events_expiry_seq_idx ON berth.events USING btree (expires_at, seq);

--
-- Name: events_find_idx; Type: INDEX; Schema: berth; Owner: -
--

CREATE INDEX events_find_idx ON berth.events USING btree (name, published_at, seq);

--
-- Name: events_name_seq_idx; Type: INDEX; Schema: berth; Owner: -
--

CREATE INDEX events_name_seq_idx ON berth.events USING btree (name, seq);

--
-- Name: jobs_due_order_idx; Type: INDEX; Schema: berth; Owner: -
--

CREATE INDEX jobs_due_order_idx ON berth.jobs USING btree (queue, priority DESC, run_at, seq) WHERE (state = ANY (ARRAY['delayed'::text, 'suspended'::text]));

--
-- Name: jobs_due_order_name_idx; Type: INDEX; Schema: berth; Owner: -
--

CREATE INDEX jobs_due_order_name_idx ON berth.jobs USING btree (queue, name, priority DESC, run_at, seq) WHERE (state = ANY (ARRAY['delayed'::text, 'suspended'::text]));

--
-- Name: jobs_lapsed_final_idx; Type: INDEX; Schema: berth; Owner: -
--

CREATE INDEX jobs_lapsed_final_idx ON berth.jobs USING btree (queue, priority DESC, run_at, seq) WHERE (lapsed AND (state = 'running'::text) AND (attempts >= max_attempts));

--
-- Name: jobs_lapsed_final_name_idx; Type: INDEX; Schema: berth; Owner: -
--

CREATE INDEX jobs_lapsed_final_name_idx ON berth.jobs USING btree (queue, name, priority DESC, run_at, seq) WHERE (lapsed AND (state = 'running'::text) AND (attempts >= max_attempts));

--
-- Name: jobs_lapsed_idx; Type: INDEX; Schema: berth; Owner: -
--

CREATE INDEX jobs_lapsed_idx ON berth.jobs USING btree (queue, priority DESC, run_at, seq) WHERE (lapsed AND (state = 'running'::text) AND (attempts < max_attempts));

--
-- Name: jobs_lapsed_name_idx; Type: INDEX; Schema: berth; Owner: -
--

CREATE INDEX jobs_lapsed_name_idx ON berth.jobs USING btree (queue, name, priority DESC, run_at, seq) WHERE (lapsed AND (state = 'running'::text) AND (attempts < max_attempts));

--
-- Name: jobs_lease_expiry_idx; Type: INDEX; Schema: berth; Owner: -
--

CREATE INDEX jobs_lease_expiry_idx ON berth.jobs USING btree (queue, visible_at) WHERE ((visible_at IS NOT NULL) AND (NOT lapsed));

--
-- Name: jobs_live_key_idx; Type: INDEX; Schema: berth; Owner: -
--

CREATE UNIQUE INDEX jobs_live_key_idx ON berth.jobs USING btree (name, COALESCE(tenant_id, ''::text), idempotency_key) WHERE ((idempotency_key IS NOT NULL) AND (state = ANY (ARRAY['ready'::text, 'delayed'::text, 'running'::text, 'suspended'::text])));

--
-- Name: jobs_purge_idx; Type: INDEX; Schema: berth; Owner: -
--

CREATE INDEX jobs_purge_idx ON berth.jobs USING btree (state, finished_at, seq) WHERE (finished_at IS NOT NULL);

--
-- Name: jobs_ready_idx; Type: INDEX; Schema: berth; Owner: -
--

CREATE INDEX jobs_ready_idx ON berth.jobs USING btree (queue, priority DESC, run_at, seq) WHERE (state = 'ready'::text);

--
-- Name: jobs_ready_name_idx; Type: INDEX; Schema: berth; Owner: -
--

CREATE INDEX jobs_ready_name_idx ON berth.jobs USING btree (queue, name, priority DESC, run_at, seq) WHERE (state = 'ready'::text);

--
-- Name: jobs_waiting_seq_idx; Type: INDEX; Schema: berth; Owner: -
--

CREATE INDEX jobs_waiting_seq_idx ON berth.jobs USING btree (wait_for, seq) WHERE (state = 'suspended'::text);

--
-- Name: schedules_due_idx; Type: INDEX; Schema: berth; Owner: -
--

CREATE INDEX schedules_due_idx ON berth.schedules USING btree (next_at, name_order, tenant_order) WHERE (NOT paused);

--
-- Name: schedules_listed_idx; Type: INDEX; Schema: berth; Owner: -
--

CREATE INDEX schedules_listed_idx ON berth.schedules USING btree (name_order, tenant_order);

--
-- Name: schedules_tenant_idx; Type: INDEX; Schema: berth; Owner: -
--

CREATE INDEX schedules_tenant_idx ON berth.schedules USING btree (tenant_id, name_order);

--
-- Name: slot_holders_expiry_idx; Type: INDEX; Schema: berth; Owner: -
--

CREATE INDEX slot_holders_expiry_idx ON berth.slot_holders USING btree (key, expires_at);

--
-- Name: slot_keys_expiry_idx; Type: INDEX; Schema: berth; Owner: -
--

CREATE INDEX slot_keys_expiry_idx ON berth.slot_keys USING btree (expires_at);

--
-- Name: slots_expiry_idx; Type: INDEX; Schema: berth; Owner: -
--

CREATE INDEX slots_expiry_idx ON berth.slots USING btree (expires_at);

--
-- Name: jobs jobs_attempt_ended; Type: TRIGGER; Schema: berth; Owner: -
--

CREATE TRIGGER jobs_attempt_ended AFTER UPDATE ON berth.jobs FOR EACH ROW WHEN (((old.state = 'running'::text) AND ((new.state <> 'running'::text) OR (new.claim <> old.claim)) AND (NOT ((new.state = 'completed'::text) AND (old.claim = 1) AND (old.claimed_at IS NOT NULL))))) EXECUTE FUNCTION berth.record_attempt();

--
-- Name: jobs jobs_attempt_error_kept; Type: TRIGGER; Schema: berth; Owner: -
--

CREATE TRIGGER jobs_attempt_error_kept AFTER UPDATE OF last_error ON berth.jobs FOR EACH ROW WHEN (((old.state = 'running'::text) AND (new.state = 'cancelled'::text) AND (new.claim = old.claim) AND (new.last_error IS NOT NULL))) EXECUTE FUNCTION berth.keep_attempt_error();

--
-- Name: jobs jobs_claim_stamped; Type: TRIGGER; Schema: berth; Owner: -
--

CREATE TRIGGER jobs_claim_stamped BEFORE UPDATE OF claim ON berth.jobs FOR EACH ROW WHEN ((new.claim <> old.claim)) EXECUTE FUNCTION berth.stamp_claim();

--
-- Name: jobs jobs_lifecycle_told; Type: TRIGGER; Schema: berth; Owner: -
--

CREATE TRIGGER jobs_lifecycle_told AFTER UPDATE ON berth.jobs REFERENCING OLD TABLE AS lifecycle_old NEW TABLE AS lifecycle_new FOR EACH STATEMENT EXECUTE FUNCTION berth.tell_lifecycle();

--
-- Name: jobs jobs_listed_add; Type: TRIGGER; Schema: berth; Owner: -
--

CREATE TRIGGER jobs_listed_add AFTER INSERT ON berth.jobs REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION berth.jobs_listed_add();

--
-- Name: jobs jobs_listed_drop; Type: TRIGGER; Schema: berth; Owner: -
--

CREATE TRIGGER jobs_listed_drop AFTER DELETE ON berth.jobs REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION berth.jobs_listed_drop();

--
-- Name: jobs jobs_progress_told; Type: TRIGGER; Schema: berth; Owner: -
--

CREATE TRIGGER jobs_progress_told AFTER UPDATE OF progress ON berth.jobs FOR EACH ROW WHEN (((old.state = 'running'::text) AND (new.state = 'running'::text) AND (new.claim = old.claim))) EXECUTE FUNCTION berth.tell_progress();

--
-- Name: job_attempts job_attempts_job_id_fkey; Type: FK CONSTRAINT; Schema: berth; Owner: -
--

ALTER TABLE ONLY berth.job_attempts
    ADD CONSTRAINT job_attempts_job_id_fkey FOREIGN KEY (job_id) REFERENCES berth.jobs(id) ON DELETE CASCADE;

--
-- Name: job_log_heads job_log_heads_job_id_fkey; Type: FK CONSTRAINT; Schema: berth; Owner: -
--

ALTER TABLE ONLY berth.job_log_heads
    ADD CONSTRAINT job_log_heads_job_id_fkey FOREIGN KEY (job_id) REFERENCES berth.jobs(id) ON DELETE CASCADE;

--
-- Name: job_logs job_logs_job_id_fkey; Type: FK CONSTRAINT; Schema: berth; Owner: -
--

ALTER TABLE ONLY berth.job_logs
    ADD CONSTRAINT job_logs_job_id_fkey FOREIGN KEY (job_id) REFERENCES berth.job_log_heads(job_id) ON DELETE CASCADE;

--
-- PostgreSQL database dump complete
--
