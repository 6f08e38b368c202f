// Generated from src/sql/migrations/*.sql by scripts/generate-migrations.ts: do not edit.
// `pnpm --filter @berth/driver-pg generate` writes it again after a .sql file is added.

export interface MigrationText {
  readonly version: number;
  /** What the migration runs, `:BERTH_SCHEMA` standing for the quoted schema. */
  readonly text: string;
}

export const MIGRATION_TEXTS: readonly MigrationText[] = [
  {
    version: 1,
    text: `
CREATE TABLE IF NOT EXISTS :BERTH_SCHEMA.jobs (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id uuid NOT NULL UNIQUE,
  run_id uuid NOT NULL,
  name text NOT NULL,
  queue text NOT NULL,
  payload json NOT NULL,
  state text NOT NULL CHECK (state IN
    ('ready', 'delayed', 'running', 'suspended', 'completed', 'failed', 'dead', 'cancelled')),
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
  wait_for text
);
CREATE UNIQUE INDEX IF NOT EXISTS jobs_live_key_idx
  ON :BERTH_SCHEMA.jobs (name, (coalesce(tenant_id, '')), idempotency_key)
  WHERE idempotency_key IS NOT NULL AND state IN ('ready', 'delayed', 'running', 'suspended');
-- The claim walks this in claim order, per queue, and stops after its limit.
CREATE INDEX IF NOT EXISTS jobs_claim_idx
  ON :BERTH_SCHEMA.jobs (queue, priority DESC, run_at, seq)
  WHERE state IN ('ready', 'delayed', 'suspended');
-- Lapsed leases: the claim re-hands or buries them, reading only the lapsed ones.
CREATE INDEX IF NOT EXISTS jobs_lease_idx ON :BERTH_SCHEMA.jobs (queue, visible_at)
  WHERE state = 'running';
CREATE INDEX IF NOT EXISTS jobs_list_idx ON :BERTH_SCHEMA.jobs (created_at DESC, seq DESC);
CREATE INDEX IF NOT EXISTS jobs_waiting_idx ON :BERTH_SCHEMA.jobs (wait_for) WHERE state = 'suspended';
CREATE INDEX IF NOT EXISTS jobs_finished_idx ON :BERTH_SCHEMA.jobs (finished_at)
  WHERE finished_at IS NOT NULL;

CREATE TABLE IF NOT EXISTS :BERTH_SCHEMA.steps (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
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
  updated_at bigint NOT NULL,
  UNIQUE (run_id, name)
);

CREATE TABLE IF NOT EXISTS :BERTH_SCHEMA.events (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id uuid NOT NULL UNIQUE,
  name text NOT NULL,
  payload json NOT NULL,
  published_at bigint NOT NULL,
  expires_at bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS events_find_idx ON :BERTH_SCHEMA.events (name, published_at, seq);
CREATE INDEX IF NOT EXISTS events_expiry_idx ON :BERTH_SCHEMA.events (expires_at);

CREATE TABLE IF NOT EXISTS :BERTH_SCHEMA.leases (
  name text PRIMARY KEY,
  holder text NOT NULL,
  expires_at bigint NOT NULL
);

-- One row per slot key, holding holder -> expiresAt: a grant decides from that one locked row.
CREATE TABLE IF NOT EXISTS :BERTH_SCHEMA.slots (
  key text PRIMARY KEY,
  holders jsonb NOT NULL
);

INSERT INTO :BERTH_SCHEMA.migrations (version) VALUES (1) ON CONFLICT DO NOTHING;
`,
  },
  {
    version: 2,
    text: `
CREATE TABLE IF NOT EXISTS :BERTH_SCHEMA.marks (
  name text PRIMARY KEY,
  value bigint NOT NULL
);

INSERT INTO :BERTH_SCHEMA.migrations (version) VALUES (2) ON CONFLICT DO NOTHING;
`,
  },
  {
    version: 3,
    text: `
-- The id is the primary key: every lookup and every update reaches a row by it, so seq (claim,
-- list and purge order only) needs no index of its own and each write maintains one fewer.
DO $pk$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_constraint
      WHERE conrelid = to_regclass(':BERTH_SCHEMA.jobs') AND conname = 'jobs_id_pkey') THEN
    ALTER TABLE :BERTH_SCHEMA.jobs DROP CONSTRAINT jobs_pkey, DROP CONSTRAINT jobs_id_key,
      ADD CONSTRAINT jobs_id_pkey PRIMARY KEY (id);
  END IF;
END $pk$;
-- Ready rows are always due: the claim walks them in claim order and stops after its limit,
-- never stepping over delayed or suspended rows of higher priority that are not due yet.
CREATE INDEX IF NOT EXISTS jobs_ready_idx
  ON :BERTH_SCHEMA.jobs (queue, priority DESC, run_at, seq) WHERE state = 'ready';
CREATE INDEX IF NOT EXISTS jobs_ready_name_idx
  ON :BERTH_SCHEMA.jobs (queue, name, priority DESC, run_at, seq) WHERE state = 'ready';
-- Delayed and suspended rows by due instant: the claim reads only the due ones, oldest first.
CREATE INDEX IF NOT EXISTS jobs_due_idx
  ON :BERTH_SCHEMA.jobs (queue, run_at, seq) WHERE state IN ('delayed', 'suspended');
CREATE INDEX IF NOT EXISTS jobs_due_name_idx
  ON :BERTH_SCHEMA.jobs (queue, name, run_at, seq) WHERE state IN ('delayed', 'suspended');
DROP INDEX IF EXISTS :BERTH_SCHEMA.jobs_claim_idx;
-- Lapsed leases: only a running row has a visible_at, so the claim's visible_at <= now reads
-- this index, while a settle (state = 'running', found by id) can never take it for a way to
-- its rows, however few running rows the statistics promise.
CREATE INDEX IF NOT EXISTS jobs_lapse_idx ON :BERTH_SCHEMA.jobs (queue, visible_at)
  WHERE visible_at IS NOT NULL;
DROP INDEX IF EXISTS :BERTH_SCHEMA.jobs_lease_idx;
-- Purge takes the oldest finished rows of each state first: state leads, so every state's walk
-- is an index range in purge order whatever the planner's statistics say.
CREATE INDEX IF NOT EXISTS jobs_purge_idx ON :BERTH_SCHEMA.jobs (state, finished_at, seq)
  WHERE finished_at IS NOT NULL;
DROP INDEX IF EXISTS :BERTH_SCHEMA.jobs_finished_idx;
-- Publish wakes an event's waiters in batches in seq order: each batch is one index range.
CREATE INDEX IF NOT EXISTS jobs_waiting_seq_idx ON :BERTH_SCHEMA.jobs (wait_for, seq)
  WHERE state = 'suspended';
DROP INDEX IF EXISTS :BERTH_SCHEMA.jobs_waiting_idx;
-- find answers the first matching event in publish order (insertion sequence).
CREATE INDEX IF NOT EXISTS events_name_seq_idx ON :BERTH_SCHEMA.events (name, seq);
CREATE INDEX IF NOT EXISTS events_expiry_seq_idx ON :BERTH_SCHEMA.events (expires_at, seq);
DROP INDEX IF EXISTS :BERTH_SCHEMA.events_expiry_idx;

-- The latest expiry among a slot's holders: a row whose holders all expired is swept.
ALTER TABLE :BERTH_SCHEMA.slots ADD COLUMN IF NOT EXISTS expires_at bigint;
UPDATE :BERTH_SCHEMA.slots SET expires_at = coalesce(
  (SELECT max((e.value)::bigint) FROM jsonb_each(holders) e), 0) WHERE expires_at IS NULL;
ALTER TABLE :BERTH_SCHEMA.slots ALTER COLUMN expires_at SET NOT NULL;
CREATE INDEX IF NOT EXISTS slots_expiry_idx ON :BERTH_SCHEMA.slots (expires_at);

-- Stores the event, then makes every row suspended on it due now, p_batch rows per statement,
-- waking each of their queues. Answers the event and how many rows it woke.
CREATE OR REPLACE FUNCTION :BERTH_SCHEMA.publish_event(
  p_id uuid, p_name text, p_payload json, p_now bigint, p_expires bigint, p_channel text,
  p_batch integer)
RETURNS TABLE (id uuid, name text, payload text, published_at bigint, expires_at bigint,
  woken bigint)
LANGUAGE plpgsql VOLATILE AS $fn$
#variable_conflict use_column
DECLARE
  after_seq bigint := 0;
  last_seq bigint;
  moved bigint;
  total bigint := 0;
  notified bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended(':BERTH_SCHEMA' || chr(1) || p_name, 0));
  INSERT INTO :BERTH_SCHEMA.events AS e (id, name, payload, published_at, expires_at)
  VALUES (p_id, p_name, p_payload, p_now, p_expires);
  LOOP
    WITH batch AS (
      SELECT j.id, j.seq FROM :BERTH_SCHEMA.jobs j
      WHERE j.state = 'suspended' AND j.wait_for = p_name AND j.seq > after_seq
      ORDER BY j.seq
      LIMIT p_batch
    ), resumed AS (
      UPDATE :BERTH_SCHEMA.jobs j SET run_at = p_now, updated_at = p_now
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
$fn$;

-- The fenced suspend. With p_wait_for it first takes the event name's lock, so a publish that
-- overlaps it either already committed (its event is seen here) or waits and then wakes this row.
CREATE OR REPLACE FUNCTION :BERTH_SCHEMA.suspend_job(
  p_id uuid, p_worker text, p_claim bigint, p_now bigint, p_until bigint, p_wait_for text,
  p_since bigint, p_channel text)
RETURNS TABLE (landed integer, woke bigint)
LANGUAGE plpgsql VOLATILE AS $fn$
#variable_conflict use_column
BEGIN
  IF p_wait_for IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock(hashtextextended(':BERTH_SCHEMA' || chr(1) || p_wait_for, 0));
  END IF;
  RETURN QUERY
  WITH moved AS (
    UPDATE :BERTH_SCHEMA.jobs j SET
      state = 'suspended',
      run_at = CASE
        WHEN p_wait_for IS NOT NULL AND p_since IS NOT NULL AND EXISTS (
          SELECT 1 FROM :BERTH_SCHEMA.events e
          WHERE e.name = p_wait_for AND e.published_at >= p_since AND e.expires_at > p_now)
        THEN p_now ELSE p_until END,
      wait_for = p_wait_for,
      claimed_by = NULL, visible_at = NULL, updated_at = p_now
    WHERE j.id = p_id AND j.state = 'running' AND j.claimed_by = p_worker AND j.claim = p_claim
    RETURNING j.queue, j.run_at
  ), notified AS (SELECT pg_notify(p_channel, m.queue) FROM moved m WHERE m.run_at <= p_now)
  SELECT 1, (SELECT count(*) FROM notified) FROM moved;
END
$fn$;

INSERT INTO :BERTH_SCHEMA.migrations (version) VALUES (3) ON CONFLICT DO NOTHING;
`,
  },
  {
    version: 4,
    text: `
-- Lapsed leases in claim order. A claim finds leases that ran out in jobs_lease_expiry_idx, a
-- bounded batch at a time, oldest expiry first, and marks those it does not take at once
-- \`lapsed\`, which moves them out of that index and into the claim-order ones below: no claim
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
`,
  },
  {
    version: 5,
    text: `
CREATE TABLE IF NOT EXISTS :BERTH_SCHEMA.jobs_listed (
  created_at bigint NOT NULL,
  seq bigint NOT NULL,
  id uuid NOT NULL,
  PRIMARY KEY (created_at, seq)
);

-- Statement triggers read the statement's rows as a set: one insert (or delete) per statement.
CREATE OR REPLACE FUNCTION :BERTH_SCHEMA.jobs_listed_add() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO :BERTH_SCHEMA.jobs_listed (created_at, seq, id) SELECT created_at, seq, id FROM added;
  RETURN NULL;
END
$fn$;
-- A purge removes a bounded batch: each of its rows is found by key (a nested loop), never by a
-- scan of jobs_listed, whatever a transition table's row estimate makes the planner expect.
CREATE OR REPLACE FUNCTION :BERTH_SCHEMA.jobs_listed_drop() RETURNS trigger
LANGUAGE plpgsql
SET enable_hashjoin = off
SET enable_mergejoin = off
AS $fn$
BEGIN
  DELETE FROM :BERTH_SCHEMA.jobs_listed l USING removed r
  WHERE l.created_at = r.created_at AND l.seq = r.seq;
  RETURN NULL;
END
$fn$;
DROP TRIGGER IF EXISTS jobs_listed_add ON :BERTH_SCHEMA.jobs;
CREATE TRIGGER jobs_listed_add AFTER INSERT ON :BERTH_SCHEMA.jobs
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION :BERTH_SCHEMA.jobs_listed_add();
DROP TRIGGER IF EXISTS jobs_listed_drop ON :BERTH_SCHEMA.jobs;
CREATE TRIGGER jobs_listed_drop AFTER DELETE ON :BERTH_SCHEMA.jobs
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION :BERTH_SCHEMA.jobs_listed_drop();

INSERT INTO :BERTH_SCHEMA.jobs_listed (created_at, seq, id)
SELECT created_at, seq, id FROM :BERTH_SCHEMA.jobs ON CONFLICT DO NOTHING;
DROP INDEX IF EXISTS :BERTH_SCHEMA.jobs_list_idx;

INSERT INTO :BERTH_SCHEMA.migrations (version) VALUES (5) ON CONFLICT DO NOTHING;
`,
  },
  {
    version: 6,
    text: `
CREATE INDEX IF NOT EXISTS jobs_due_order_idx ON :BERTH_SCHEMA.jobs (queue, priority DESC, run_at, seq)
  WHERE state IN ('delayed', 'suspended');
CREATE INDEX IF NOT EXISTS jobs_due_order_name_idx
  ON :BERTH_SCHEMA.jobs (queue, name, priority DESC, run_at, seq) WHERE state IN ('delayed', 'suspended');
DROP INDEX IF EXISTS :BERTH_SCHEMA.jobs_due_idx;
DROP INDEX IF EXISTS :BERTH_SCHEMA.jobs_due_name_idx;

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

INSERT INTO :BERTH_SCHEMA.migrations (version) VALUES (6) ON CONFLICT DO NOTHING;
`,
  },
  {
    version: 7,
    text: `
CREATE TABLE IF NOT EXISTS :BERTH_SCHEMA.slot_holders (
  key text NOT NULL,
  holder text NOT NULL,
  expires_at bigint NOT NULL,
  PRIMARY KEY (key, holder)
);
CREATE INDEX IF NOT EXISTS slot_holders_expiry_idx ON :BERTH_SCHEMA.slot_holders (key, expires_at);
CREATE TABLE IF NOT EXISTS :BERTH_SCHEMA.slot_keys (
  key text PRIMARY KEY,
  held integer NOT NULL,
  expires_at bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS slot_keys_expiry_idx ON :BERTH_SCHEMA.slot_keys (expires_at);

INSERT INTO :BERTH_SCHEMA.slot_holders (key, holder, expires_at)
  SELECT t.key, e.key, (e.value)::bigint FROM :BERTH_SCHEMA.slots t, jsonb_each(t.holders) e
  ON CONFLICT DO NOTHING;
INSERT INTO :BERTH_SCHEMA.slot_keys (key, held, expires_at)
  SELECT key, count(*), max(expires_at) FROM :BERTH_SCHEMA.slot_holders GROUP BY key
  ON CONFLICT DO NOTHING;
DELETE FROM :BERTH_SCHEMA.slots;

-- Renews the holder's unexpired slot, or takes one while fewer than p_limit are unexpired.
-- Sweeps the key's expired holders, and up to p_sweep other keys whose holders all expired.
CREATE OR REPLACE FUNCTION :BERTH_SCHEMA.acquire_slot(
  p_key text, p_limit integer, p_holder text, p_now bigint, p_expires bigint, p_sweep integer
) RETURNS boolean LANGUAGE plpgsql AS $fn$
DECLARE
  v_held integer;
  v_swept integer;
BEGIN
  PERFORM :BERTH_SCHEMA.sweep_slot_keys(p_key, p_now, p_sweep);
  INSERT INTO :BERTH_SCHEMA.slot_keys AS k (key, held, expires_at) VALUES (p_key, 0, p_expires)
    ON CONFLICT (key) DO UPDATE SET expires_at = greatest(k.expires_at, excluded.expires_at)
    RETURNING held INTO v_held;
  UPDATE :BERTH_SCHEMA.slot_holders SET expires_at = p_expires
    WHERE key = p_key AND holder = p_holder AND expires_at > p_now;
  IF FOUND THEN RETURN true; END IF;
  WITH gone AS (
    DELETE FROM :BERTH_SCHEMA.slot_holders WHERE key = p_key AND expires_at <= p_now RETURNING 1
  ) SELECT count(*) INTO v_swept FROM gone;
  v_held := v_held - v_swept;
  IF v_held >= p_limit THEN
    UPDATE :BERTH_SCHEMA.slot_keys SET held = v_held WHERE key = p_key;
    RETURN false;
  END IF;
  INSERT INTO :BERTH_SCHEMA.slot_holders (key, holder, expires_at) VALUES (p_key, p_holder, p_expires);
  UPDATE :BERTH_SCHEMA.slot_keys SET held = v_held + 1 WHERE key = p_key;
  RETURN true;
END
$fn$;

-- Gives the holder's unexpired slot back; the key's row goes with its last holder row.
CREATE OR REPLACE FUNCTION :BERTH_SCHEMA.release_slot(
  p_key text, p_holder text, p_now bigint, p_sweep integer
) RETURNS boolean LANGUAGE plpgsql AS $fn$
DECLARE
  v_held integer;
BEGIN
  PERFORM :BERTH_SCHEMA.sweep_slot_keys(p_key, p_now, p_sweep);
  SELECT held INTO v_held FROM :BERTH_SCHEMA.slot_keys WHERE key = p_key FOR UPDATE;
  IF NOT FOUND THEN RETURN false; END IF;
  DELETE FROM :BERTH_SCHEMA.slot_holders WHERE key = p_key AND holder = p_holder AND expires_at > p_now;
  IF NOT FOUND THEN RETURN false; END IF;
  IF v_held <= 1 THEN
    DELETE FROM :BERTH_SCHEMA.slot_keys WHERE key = p_key;
  ELSE
    UPDATE :BERTH_SCHEMA.slot_keys SET held = v_held - 1 WHERE key = p_key;
  END IF;
  RETURN true;
END
$fn$;

-- Removes up to p_sweep keys other than p_key whose every holder expired, skipping locked ones.
CREATE OR REPLACE FUNCTION :BERTH_SCHEMA.sweep_slot_keys(p_key text, p_now bigint, p_sweep integer)
RETURNS void LANGUAGE plpgsql AS $fn$
DECLARE
  v_key text;
BEGIN
  FOR v_key IN
    SELECT key FROM :BERTH_SCHEMA.slot_keys WHERE expires_at <= p_now AND key <> p_key
    ORDER BY expires_at LIMIT p_sweep FOR UPDATE SKIP LOCKED
  LOOP
    DELETE FROM :BERTH_SCHEMA.slot_holders WHERE key = v_key;
    DELETE FROM :BERTH_SCHEMA.slot_keys WHERE key = v_key;
  END LOOP;
END
$fn$;

INSERT INTO :BERTH_SCHEMA.migrations (version) VALUES (7) ON CONFLICT DO NOTHING;
`,
  },
  {
    version: 8,
    text: `
ALTER TABLE :BERTH_SCHEMA.jobs ADD COLUMN IF NOT EXISTS claimed_at bigint;

CREATE TABLE IF NOT EXISTS :BERTH_SCHEMA.job_attempts (
  job_id uuid NOT NULL REFERENCES :BERTH_SCHEMA.jobs (id) ON DELETE CASCADE,
  seq integer NOT NULL,
  attempt integer NOT NULL,
  claim bigint NOT NULL,
  worker text NOT NULL,
  claimed_at bigint NOT NULL,
  ended_at bigint NOT NULL,
  outcome text NOT NULL,
  error json,
  PRIMARY KEY (job_id, seq)
);

-- The longest prefix of whole characters of p_text within p_bytes bytes: each round drops at
-- least the characters the excess bytes must hold (a character is at most 4 bytes), never more.
CREATE OR REPLACE FUNCTION :BERTH_SCHEMA.cut_utf8(p_text text, p_bytes integer)
RETURNS text LANGUAGE plpgsql IMMUTABLE AS $fn$
DECLARE
  v text := left(p_text, p_bytes);
BEGIN
  WHILE octet_length(v) > p_bytes LOOP
    v := left(v, length(v) - (octet_length(v) - p_bytes + 3) / 4);
  END LOOP;
  RETURN v;
END
$fn$;

CREATE OR REPLACE FUNCTION :BERTH_SCHEMA.stamp_claim() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  NEW.claimed_at := NEW.updated_at;
  RETURN NEW;
END
$fn$;

CREATE OR REPLACE FUNCTION :BERTH_SCHEMA.record_attempt() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  v_seq integer;
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
        'message', :BERTH_SCHEMA.cut_utf8(coalesce(NEW.last_error->>'message', ''), 1024),
        'stack', :BERTH_SCHEMA.cut_utf8(NEW.last_error->>'stack', 4096)));
    END IF;
  END IF;
  SELECT coalesce(max(a.seq), 0) + 1 INTO v_seq FROM :BERTH_SCHEMA.job_attempts a WHERE a.job_id = OLD.id;
  INSERT INTO :BERTH_SCHEMA.job_attempts
    (job_id, seq, attempt, claim, worker, claimed_at, ended_at, outcome, error)
  VALUES (OLD.id, v_seq, OLD.attempts, OLD.claim, coalesce(OLD.claimed_by, ''),
    coalesce(OLD.claimed_at, OLD.updated_at), NEW.updated_at, v_outcome, v_error);
  DELETE FROM :BERTH_SCHEMA.job_attempts a WHERE a.job_id = OLD.id AND a.seq > 1 AND a.seq <= v_seq - 9;
  RETURN NULL;
END
$fn$;

DROP TRIGGER IF EXISTS jobs_claim_stamped ON :BERTH_SCHEMA.jobs;
CREATE TRIGGER jobs_claim_stamped BEFORE UPDATE OF claim ON :BERTH_SCHEMA.jobs
  FOR EACH ROW WHEN (NEW.claim <> OLD.claim) EXECUTE FUNCTION :BERTH_SCHEMA.stamp_claim();
DROP TRIGGER IF EXISTS jobs_attempt_ended ON :BERTH_SCHEMA.jobs;
CREATE TRIGGER jobs_attempt_ended AFTER UPDATE ON :BERTH_SCHEMA.jobs
  FOR EACH ROW WHEN (OLD.state = 'running' AND (NEW.state <> 'running' OR NEW.claim <> OLD.claim))
  EXECUTE FUNCTION :BERTH_SCHEMA.record_attempt();

INSERT INTO :BERTH_SCHEMA.migrations (version) VALUES (8) ON CONFLICT DO NOTHING;
`,
  },
  {
    version: 9,
    text: `
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
`,
  },
  {
    version: 10,
    text: `
CREATE TABLE IF NOT EXISTS :BERTH_SCHEMA.job_log_heads (
  job_id uuid PRIMARY KEY REFERENCES :BERTH_SCHEMA.jobs (id) ON DELETE CASCADE,
  kept integer NOT NULL,
  dropped bigint NOT NULL,
  claim bigint NOT NULL,
  next bigint NOT NULL
);
CREATE TABLE IF NOT EXISTS :BERTH_SCHEMA.job_logs (
  job_id uuid NOT NULL REFERENCES :BERTH_SCHEMA.job_log_heads (job_id) ON DELETE CASCADE,
  seq integer NOT NULL,
  attempt integer NOT NULL,
  at bigint NOT NULL,
  level text NOT NULL,
  message text NOT NULL,
  PRIMARY KEY (job_id, seq)
);

-- Lands the batch while the fence holds; answers whether it held.
CREATE OR REPLACE FUNCTION :BERTH_SCHEMA.append_job_logs(
  p_job uuid, p_worker text, p_claim bigint, p_from bigint,
  p_at bigint[], p_level text[], p_message text[], p_cap integer
) RETURNS boolean LANGUAGE plpgsql AS $fn$
DECLARE
  v_attempts integer;
  v_kept integer;
  v_next bigint;
  v_claim bigint;
  v_count integer := cardinality(p_at);
  v_skip integer;
  v_take integer;
BEGIN
  SELECT attempts INTO v_attempts FROM :BERTH_SCHEMA.jobs
    WHERE id = p_job AND state = 'running' AND claimed_by = p_worker AND claim = p_claim
    FOR SHARE;
  IF NOT FOUND THEN RETURN false; END IF;
  INSERT INTO :BERTH_SCHEMA.job_log_heads (job_id, kept, dropped, claim, next)
    VALUES (p_job, 0, 0, p_claim, 0) ON CONFLICT (job_id) DO NOTHING;
  SELECT kept, next, claim INTO v_kept, v_next, v_claim FROM :BERTH_SCHEMA.job_log_heads
    WHERE job_id = p_job FOR UPDATE;
  IF v_claim <> p_claim THEN v_next := 0; END IF;
  v_skip := least(v_count, greatest(0, v_next - p_from))::integer;
  v_take := least(v_count - v_skip, greatest(0, p_cap - v_kept));
  INSERT INTO :BERTH_SCHEMA.job_logs (job_id, seq, attempt, at, level, message)
    SELECT p_job, v_kept + (l.ord - v_skip)::integer, v_attempts, l.at, l.level, l.message
    FROM unnest(p_at, p_level, p_message) WITH ORDINALITY AS l(at, level, message, ord)
    WHERE l.ord > v_skip AND l.ord <= v_skip + v_take;
  UPDATE :BERTH_SCHEMA.job_log_heads SET
    kept = v_kept + v_take,
    dropped = dropped + (v_count - v_skip - v_take),
    claim = p_claim,
    next = greatest(v_next, p_from + v_count)
  WHERE job_id = p_job;
  RETURN true;
END
$fn$;

INSERT INTO :BERTH_SCHEMA.migrations (version) VALUES (10) ON CONFLICT DO NOTHING;
`,
  },
  {
    version: 11,
    text: `
CREATE TABLE IF NOT EXISTS :BERTH_SCHEMA.backfill_runs (
  run_id uuid PRIMARY KEY,
  name text NOT NULL,
  tenant_id text,
  status text NOT NULL CHECK (status IN ('running', 'paused', 'completed', 'failed', 'cancelled')),
  cursor jsonb NOT NULL,
  passes bigint NOT NULL,
  rows_done bigint NOT NULL,
  job_id uuid NOT NULL,
  started_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  finished_at bigint,
  last_error text
);
CREATE INDEX IF NOT EXISTS backfill_runs_holder_idx
  ON :BERTH_SCHEMA.backfill_runs (name, (coalesce(tenant_id, '')), started_at, run_id);
CREATE INDEX IF NOT EXISTS backfill_runs_started_idx
  ON :BERTH_SCHEMA.backfill_runs (started_at, run_id);

-- Answers (true, the run) when it is stored or now started; (false, each active run, oldest
-- start first) when p_max_active of them hold every place. A start drops the oldest final runs
-- of its (name, tenant) past p_kept.
CREATE OR REPLACE FUNCTION :BERTH_SCHEMA.start_backfill(
  p_run uuid, p_name text, p_tenant text, p_cursor jsonb, p_job uuid, p_max_active integer,
  p_now bigint, p_kept integer
) RETURNS TABLE (started boolean, run_id uuid, name text, tenant_id text, status text,
  cursor text, passes bigint, rows_done bigint, job_id uuid, started_at bigint, updated_at bigint,
  finished_at bigint, last_error text)
LANGUAGE plpgsql VOLATILE AS $fn$
#variable_conflict use_column
DECLARE
  v_active :BERTH_SCHEMA.backfill_runs[];
BEGIN
  -- 0x4246494C ('BFIL'): the lock class of backfill starts (migrate's is 'BERT').
  PERFORM pg_advisory_xact_lock(1111902540,
    hashtext(jsonb_build_array(':BERTH_SCHEMA', p_name, p_tenant)::text));
  RETURN QUERY SELECT true, r.run_id, r.name, r.tenant_id, r.status, r.cursor::text, r.passes, r.rows_done, r.job_id, r.started_at, r.updated_at, r.finished_at, r.last_error
    FROM :BERTH_SCHEMA.backfill_runs r WHERE r.run_id = p_run;
  IF FOUND THEN RETURN; END IF;
  -- Read once: a cancel landing meanwhile cannot make the refusal name fewer runs than it counted.
  SELECT array_agg(r ORDER BY r.started_at, r.run_id) INTO v_active FROM :BERTH_SCHEMA.backfill_runs r
    WHERE r.name = p_name AND coalesce(r.tenant_id, '') = coalesce(p_tenant, '')
      AND r.status IN ('running', 'paused');
  IF coalesce(cardinality(v_active), 0) >= p_max_active THEN
    RETURN QUERY SELECT false, a.run_id, a.name, a.tenant_id, a.status, a.cursor::text, a.passes, a.rows_done, a.job_id, a.started_at, a.updated_at, a.finished_at, a.last_error
      FROM unnest(v_active) WITH ORDINALITY AS a ORDER BY a.ordinality;
    RETURN;
  END IF;
  -- A start of another name under this runId may hold it: the stored run is the answer then.
  INSERT INTO :BERTH_SCHEMA.backfill_runs (run_id, name, tenant_id, status, cursor, passes, rows_done,
      job_id, started_at, updated_at)
    VALUES (p_run, p_name, p_tenant, 'running', p_cursor, 0, 0, p_job, p_now, p_now)
    ON CONFLICT (run_id) DO NOTHING;
  IF FOUND THEN
    DELETE FROM :BERTH_SCHEMA.backfill_runs WHERE run_id IN (
      SELECT r.run_id FROM :BERTH_SCHEMA.backfill_runs r
      WHERE r.name = p_name AND coalesce(r.tenant_id, '') = coalesce(p_tenant, '')
        AND r.status IN ('completed', 'failed', 'cancelled')
      ORDER BY r.started_at DESC, r.run_id DESC
      OFFSET p_kept);
  END IF;
  RETURN QUERY SELECT true, r.run_id, r.name, r.tenant_id, r.status, r.cursor::text, r.passes, r.rows_done, r.job_id, r.started_at, r.updated_at, r.finished_at, r.last_error
    FROM :BERTH_SCHEMA.backfill_runs r WHERE r.run_id = p_run;
END
$fn$;

INSERT INTO :BERTH_SCHEMA.migrations (version) VALUES (11) ON CONFLICT DO NOTHING;
`,
  },
  {
    version: 12,
    text: `
CREATE OR REPLACE FUNCTION :BERTH_SCHEMA.keep_attempt_error() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  UPDATE :BERTH_SCHEMA.job_attempts a SET error = json_strip_nulls(json_build_object(
      'code', NEW.last_error->>'code',
      'message', :BERTH_SCHEMA.cut_utf8(coalesce(NEW.last_error->>'message', ''), 1024),
      'stack', :BERTH_SCHEMA.cut_utf8(NEW.last_error->>'stack', 4096)))
  WHERE a.job_id = OLD.id AND a.claim = OLD.claim AND a.outcome = 'cancelled';
  RETURN NULL;
END
$fn$;

DROP TRIGGER IF EXISTS jobs_attempt_error_kept ON :BERTH_SCHEMA.jobs;
CREATE TRIGGER jobs_attempt_error_kept AFTER UPDATE OF last_error ON :BERTH_SCHEMA.jobs
  FOR EACH ROW WHEN (OLD.state = 'running' AND NEW.state = 'cancelled' AND NEW.claim = OLD.claim
    AND NEW.last_error IS NOT NULL)
  EXECUTE FUNCTION :BERTH_SCHEMA.keep_attempt_error();

INSERT INTO :BERTH_SCHEMA.migrations (version) VALUES (12) ON CONFLICT DO NOTHING;
`,
  },
  {
    version: 13,
    text: `
CREATE OR REPLACE FUNCTION :BERTH_SCHEMA.record_attempt() RETURNS trigger LANGUAGE plpgsql
SET enable_seqscan = off
AS $fn$
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
        'message', :BERTH_SCHEMA.cut_utf8(coalesce(NEW.last_error->>'message', ''), 1024),
        'stack', :BERTH_SCHEMA.cut_utf8(NEW.last_error->>'stack', 4096)));
    END IF;
  END IF;
  IF OLD.claim > 1 THEN
    SELECT coalesce(max(a.seq), 0) + 1 INTO v_seq FROM :BERTH_SCHEMA.job_attempts a WHERE a.job_id = OLD.id;
  END IF;
  INSERT INTO :BERTH_SCHEMA.job_attempts
    (job_id, seq, attempt, claim, worker, claimed_at, ended_at, outcome, error)
  VALUES (OLD.id, v_seq, OLD.attempts, OLD.claim, coalesce(OLD.claimed_by, ''),
    coalesce(OLD.claimed_at, OLD.updated_at), NEW.updated_at, v_outcome, v_error);
  IF v_seq > 10 THEN
    DELETE FROM :BERTH_SCHEMA.job_attempts a WHERE a.job_id = OLD.id AND a.seq > 1 AND a.seq <= v_seq - 9;
  END IF;
  RETURN NULL;
END
$fn$;

ALTER FUNCTION :BERTH_SCHEMA.keep_attempt_error() SET enable_seqscan = off;

INSERT INTO :BERTH_SCHEMA.migrations (version) VALUES (13) ON CONFLICT DO NOTHING;
`,
  },
  {
    version: 14,
    text: `
DROP TRIGGER IF EXISTS jobs_attempt_ended ON :BERTH_SCHEMA.jobs;
CREATE TRIGGER jobs_attempt_ended AFTER UPDATE ON :BERTH_SCHEMA.jobs
  FOR EACH ROW WHEN (OLD.state = 'running' AND (NEW.state <> 'running' OR NEW.claim <> OLD.claim)
    AND NOT (NEW.state = 'completed' AND OLD.claim = 1 AND OLD.claimed_at IS NOT NULL))
  EXECUTE FUNCTION :BERTH_SCHEMA.record_attempt();

INSERT INTO :BERTH_SCHEMA.migrations (version) VALUES (14) ON CONFLICT DO NOTHING;
`,
  },
  {
    version: 15,
    text: `
CREATE TABLE IF NOT EXISTS :BERTH_SCHEMA.schedules (
  tenant_id text COLLATE "C" NOT NULL,
  name text COLLATE "C" NOT NULL,
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
  updated_at bigint NOT NULL,
  PRIMARY KEY (tenant_id, name)
);
CREATE INDEX IF NOT EXISTS schedules_listed_idx
  ON :BERTH_SCHEMA.schedules (name_order, tenant_order);
CREATE INDEX IF NOT EXISTS schedules_tenant_idx
  ON :BERTH_SCHEMA.schedules (tenant_id, name_order);
CREATE INDEX IF NOT EXISTS schedules_due_idx
  ON :BERTH_SCHEMA.schedules (next_at, name_order, tenant_order) WHERE NOT paused;

INSERT INTO :BERTH_SCHEMA.migrations (version) VALUES (15) ON CONFLICT DO NOTHING;
`,
  },
  {
    version: 16,
    text: `
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
`,
  },
  {
    version: 17,
    text: `
CREATE TABLE IF NOT EXISTS :BERTH_SCHEMA.lifecycle_batches (
  stamp xid8 NOT NULL,
  id bigint GENERATED ALWAYS AS IDENTITY (CACHE 1),
  events integer NOT NULL,
  kept_from integer NOT NULL DEFAULT 1,
  job_ids uuid[] NOT NULL,
  types text[] NOT NULL,
  names text[] NOT NULL,
  queues text[] NOT NULL,
  tenant_ids text[] NOT NULL,
  attempts integer[] NOT NULL,
  ats bigint[] NOT NULL,
  PRIMARY KEY (stamp, id)
);

-- The highest horizon bound a reader has published (an xid8 as a number): a sequence, so every
-- writer reads its latest value, not its snapshot's.
CREATE SEQUENCE IF NOT EXISTS :BERTH_SCHEMA.lifecycle_horizon AS bigint MINVALUE 0 START 0;

-- The stamp of a row written now (see above), from a snapshot taken now.
CREATE OR REPLACE FUNCTION :BERTH_SCHEMA.lifecycle_stamp() RETURNS xid8 LANGUAGE sql VOLATILE AS $fn$
  SELECT greatest(pg_current_xact_id(),
    (pg_snapshot_xmax(pg_current_snapshot())::text::numeric - 1)::text::xid8,
    (SELECT h.last_value FROM :BERTH_SCHEMA.lifecycle_horizon h)::text::xid8)
$fn$;

CREATE OR REPLACE FUNCTION :BERTH_SCHEMA.tell_lifecycle() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  v_stamp xid8 := :BERTH_SCHEMA.lifecycle_stamp();
BEGIN
  IF strpos(current_query(), 'claim_jobs') > 0 THEN
    INSERT INTO :BERTH_SCHEMA.lifecycle_batches
      (stamp, events, job_ids, types, names, queues, tenant_ids, attempts, ats)
    SELECT v_stamp, count(*), array_agg(n.id), array_agg('stalled'::text), array_agg(n.name),
      array_agg(n.queue), array_agg(n.tenant_id), array_agg(o.attempts), array_agg(n.updated_at)
    FROM lifecycle_old o JOIN lifecycle_new n ON n.id = o.id
    WHERE o.state = 'running' AND (n.claim <> o.claim OR n.state IN ('dead', 'failed'))
    HAVING count(*) > 0;
  END IF;
  INSERT INTO :BERTH_SCHEMA.lifecycle_batches
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
$fn$;

DROP TRIGGER IF EXISTS jobs_lifecycle_told ON :BERTH_SCHEMA.jobs;
CREATE TRIGGER jobs_lifecycle_told AFTER UPDATE ON :BERTH_SCHEMA.jobs
  REFERENCING OLD TABLE AS lifecycle_old NEW TABLE AS lifecycle_new
  FOR EACH STATEMENT EXECUTE FUNCTION :BERTH_SCHEMA.tell_lifecycle();

CREATE OR REPLACE FUNCTION :BERTH_SCHEMA.tell_progress() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO :BERTH_SCHEMA.lifecycle_batches
    (stamp, events, job_ids, types, names, queues, tenant_ids, attempts, ats)
  VALUES (:BERTH_SCHEMA.lifecycle_stamp(), 1, ARRAY[NEW.id], ARRAY['progress'], ARRAY[NEW.name],
    ARRAY[NEW.queue], ARRAY[NEW.tenant_id], ARRAY[NEW.attempts], ARRAY[NEW.updated_at]);
  RETURN NULL;
END
$fn$;

DROP TRIGGER IF EXISTS jobs_progress_told ON :BERTH_SCHEMA.jobs;
CREATE TRIGGER jobs_progress_told AFTER UPDATE OF progress ON :BERTH_SCHEMA.jobs
  FOR EACH ROW WHEN (OLD.state = 'running' AND NEW.state = 'running' AND NEW.claim = OLD.claim)
  EXECUTE FUNCTION :BERTH_SCHEMA.tell_progress();

-- The horizon readers read below (rows of a smaller stamp), in a transaction of its own: it takes
-- an id, publishes the larger of it and its snapshot's xmax (under a lock, so the bound only
-- grows), then answers the oldest transaction running in its snapshot that holds a lock on jobs,
-- after waiting up to p_wait_ms for them to end, else the snapshot's xmax. Its own id ends with
-- it, so the next reader's xmax passes the bound it published. A transaction that holds a lock on
-- jobs past the wait (an app's that enqueued) holds back the rows stamped after it.
CREATE OR REPLACE FUNCTION :BERTH_SCHEMA.lifecycle_horizon(p_wait_ms integer) RETURNS xid8
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  v_own xid8 := pg_current_xact_id();
  v_snapshot pg_snapshot := pg_current_snapshot();
  v_bound bigint := greatest(v_own, pg_snapshot_xmax(v_snapshot))::text::bigint;
  v_key bigint := hashtextextended(':BERTH_SCHEMA' || chr(1) || 'lifecycle horizon', 0);
  v_until timestamptz := clock_timestamp() + p_wait_ms * interval '1 millisecond';
  v_writers xid[];
  v_oldest xid8;
BEGIN
  -- A session lock, held only around the write: readers never wait on each other's waits.
  PERFORM pg_advisory_lock(v_key);
  BEGIN
    PERFORM setval(':BERTH_SCHEMA.lifecycle_horizon', v_bound)
    FROM :BERTH_SCHEMA.lifecycle_horizon h WHERE h.last_value < v_bound;
  EXCEPTION WHEN OTHERS OR query_canceled THEN
    PERFORM pg_advisory_unlock(v_key);
    RAISE;
  END;
  PERFORM pg_advisory_unlock(v_key);
  v_writers := ARRAY(
    SELECT t.transactionid FROM pg_locks r
    JOIN pg_locks t ON t.virtualtransaction = r.virtualtransaction
    WHERE r.locktype = 'relation' AND r.relation = ':BERTH_SCHEMA.jobs'::regclass
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
$fn$;

-- Removes up to p_limit of the oldest events beyond the newest p_keep, and answers how many: whole
-- rows, and the oldest events of a row cut by moving its \`kept_from\`. Trims take turns, so two
-- never count the same events. The walk for the row holding the p_keep-th newest event reads
-- rows newest first and stops there.
CREATE OR REPLACE FUNCTION :BERTH_SCHEMA.lifecycle_trim(p_keep integer, p_limit integer)
RETURNS bigint LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  v_edge record;
  v_row record;
  v_budget bigint := p_limit;
  v_live bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended(':BERTH_SCHEMA' || chr(1) || 'lifecycle trim', 0));
  SELECT c.stamp, c.id, c.seen INTO v_edge FROM (
    SELECT b.stamp, b.id, sum(b.events - b.kept_from + 1) OVER (
        ORDER BY b.stamp DESC, b.id DESC ROWS UNBOUNDED PRECEDING) AS seen
    FROM :BERTH_SCHEMA.lifecycle_batches b
    ORDER BY b.stamp DESC, b.id DESC) c
  WHERE c.seen >= p_keep
  LIMIT 1;
  IF NOT FOUND THEN
    RETURN 0;
  END IF;
  FOR v_row IN
    SELECT b.stamp, b.id, b.events, b.kept_from FROM :BERTH_SCHEMA.lifecycle_batches b
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
      DELETE FROM :BERTH_SCHEMA.lifecycle_batches b WHERE b.stamp = v_row.stamp AND b.id = v_row.id;
    ELSIF v_live > 0 THEN
      UPDATE :BERTH_SCHEMA.lifecycle_batches b SET kept_from = b.kept_from + v_live
      WHERE b.stamp = v_row.stamp AND b.id = v_row.id;
    END IF;
    v_budget := v_budget - v_live;
  END LOOP;
  RETURN p_limit - v_budget;
END
$fn$;

INSERT INTO :BERTH_SCHEMA.migrations (version) VALUES (17) ON CONFLICT DO NOTHING;
`,
  },
];
