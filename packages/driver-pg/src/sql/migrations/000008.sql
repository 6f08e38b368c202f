-- Migration 8: each job's attempt history (core's contract/attempts.ts). `job_attempts` holds a
-- row per ended attempt, keyed `(job_id, seq)`, and goes with its job (ON DELETE CASCADE: purge
-- and delete remove it). Two triggers on jobs write it, so every statement that ends an attempt
-- (ack, nack, their batches, suspend, cancel, and the claim's re-claim or burial of a lapsed
-- lease) writes its record in its own change, and only for rows it changed (a stale fence
-- changes no row, so writes no record), with no statement of their own rewritten:
-- - `jobs_claim_stamped` (BEFORE, only when `claim` moves) keeps the claim instant in the new
--   `claimed_at` column;
-- - `jobs_attempt_ended` (AFTER, only when a running row stops running or is claimed again)
--   appends the record and drops the one the cap pushes out: the first record and the latest 9
--   are kept (MAX_ATTEMPT_RECORDS = 10). The row's lock (the update holds it) orders two
--   settles of one job, so `max(seq) + 1` is safe.
-- The bounds are written out: 10 records, message 1024 and stack 4096 bytes of UTF-8
-- (MAX_ATTEMPT_MESSAGE_BYTES, MAX_ATTEMPT_STACK_BYTES).

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
