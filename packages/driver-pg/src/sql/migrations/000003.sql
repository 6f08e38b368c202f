-- Migration 3: the id as the primary key, claim indexes that hold due rows only, a lapsed-lease
-- index settles cannot mistake for a way to running rows, publish and suspend serialized on the
-- event name, and slots that leave nothing behind.
--
-- Publish and suspend run as functions because each takes a transaction-scoped advisory lock on
-- the event name and must then read with a snapshot taken AFTER the lock: under READ COMMITTED
-- each statement of a volatile function gets a fresh snapshot, one statement alone cannot.
-- The lock is held to the end of the caller's transaction (an app's, when it publishes inside
-- one), so a suspend that overlaps a publish sees its event or is seen by its wake-up. Both
-- functions compute the lock key alike: the quoted schema name, chr(1), the event name.

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
