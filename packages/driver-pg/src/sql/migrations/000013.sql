-- Migration 13: the attempt-record triggers read `job_attempts` by its key whatever the
-- statistics say, and a job's first record costs one insert.
-- - Migration 8's record_attempt (its `max(seq)` and the cap's DELETE) and migration 12's
--   keep_attempt_error run once per changed row. After an ANALYZE that saw the table empty, as
--   autovacuum leaves it before the first ack, their plans scanned the whole table for every
--   row, so an ackMany of 1,000 read it 2,000 times (800 ms a batch behind 20k records, against
--   32 ms). Both now run with `enable_seqscan = off`, as claim_jobs does: each lookup is by
--   `(job_id, seq)`, the primary key.
-- - record_attempt looks for the last record only when the attempt ending is not the row's
--   first claim (`claim` only grows, and each claim ends once, so claim 1 ends with record 1),
--   and runs the cap's DELETE only once a record past the cap exists (seq 11 on). It writes the
--   same records as migration 8's; the common ack (a first attempt) is one INSERT per row.

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
