-- Migration 12: a nack with `cancel` keeps its error in the attempt's record. Migration 8's
-- record_attempt gives a running row that becomes `cancelled` a `cancelled` record with no error:
-- an operator's cancel carries none (the row keeps the lastError of an earlier attempt). A nack
-- with `cancel` ends the attempt `cancelled` as well, but with the error it stores as lastError,
-- and the row alone cannot tell the two apart (that error may equal the earlier one). The
-- statement can: a nack sets last_error, a cancel never does. So `jobs_attempt_error_kept`, an
-- AFTER trigger OF last_error (it fires only for a statement whose SET names last_error), for a
-- running row that becomes `cancelled` under the same claim, writes that last_error, cut to the
-- record's bounds as record_attempt cuts it, into the record `jobs_attempt_ended` appended for
-- the same row: triggers of one event fire in name order, `jobs_attempt_ended` first. Neither
-- migration 8's function nor any statement of an older version changes; only a nack with
-- `cancel` (never sent by an older version) ever fires the new trigger.

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
