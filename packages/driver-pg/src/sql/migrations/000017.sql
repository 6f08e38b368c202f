-- Migration 17: the lifecycle event stream (core's contract/lifecycle.ts). `lifecycle_batches`
-- holds the events of one statement in one row, as parallel arrays (`events` of them; those before
-- `kept_from` are trimmed): a row per event cost a claim(1000)→ackMany loop about twice the
-- server time a row per statement does. Stream order is (stamp, id, place in the arrays).
-- Triggers on jobs write the rows, so every statement that makes a transition writes its events
-- in its own change, and only for rows it changed (a stale fence changes no row), also the
-- statements of a process of the previous version during a rolling deploy, which know nothing of
-- the stream:
-- - `jobs_lifecycle_told` (AFTER, per statement, over its transition tables) compares each
--   changed row with what it was: `claim` grew is a claim (`active`, after `stalled` when the row
--   was `running`); a new state under the same claim is the settle, suspend or cancel that set it.
--   A `running` row that became `dead` or `failed` in a claim statement is a burial (`stalled`
--   first): only the client's statement text tells a burial from a nack that gave up, as both
--   write the same columns, and every claim (of any version) calls claim_jobs or claim_jobs_v2.
--   Only claims move `claim` or bury, so only a claim statement looks for `stalled` events, in a
--   row of their own written first: a job's `stalled` comes before its `active` or `dead`.
-- - `jobs_progress_told` (AFTER, per row, only for statements whose SET names `progress`) writes
--   `progress`: a progress write that stores the value the row held changes nothing a
--   comparison could see. Only the progress statement sets `progress`.
-- Enqueue, extend, promote, requeue, the lapse marking, a publish's wake-up and deletes change
-- neither `claim` nor a live state the way a transition does, so they write none.
--
-- Ids are taken in the order rows are written, but commit out of order, so a reader that passed
-- id 10 would miss id 9 committing later. So rows are read in `stamp` order, and only below a
-- horizon (lifecycle_horizon) under which no row is still to come:
-- - a row's stamp is the largest of its transaction's id, one less than the xmax of a snapshot
--   taken as it is written, and the highest horizon a reader has published (lifecycle_stamp);
-- - a reader publishes its horizon's bound first (the sequence `lifecycle_horizon`, read fresh by
--   every writer whatever its isolation), then reads below the oldest transaction that holds a
--   lock on this schema's jobs (every writer of events does, to its end), after waiting a moment
--   for those to end. A writer that took that lock later stamps at least the published bound, and
--   one that had no id yet gets a larger one, so no row can appear below a horizon a reader used.
-- A change of a job made after another one committed stamps at least what that one did (the
-- snapshot's xmax has passed it, and the published bound only grows), with a later id, so one
-- job's events read in the order of its changes. The row sequence must hand ids out in the order
-- they are asked for: it caches none.

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
-- rows, and the oldest events of a row cut by moving its `kept_from`. Trims take turns, so two
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
