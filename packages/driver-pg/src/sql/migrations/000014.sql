-- Migration 14: an ack of a first claim writes its attempt's record in its own statement. The
-- record of every other ended attempt is still written by migration 8's trigger. Run per row in
-- PL/pgSQL, that trigger was over a third of the server's work per job in a burn-down (a
-- claim(1000)→ackMany loop: 41–48 µs/job on the server with it, 26–34 without). The common end of
-- an attempt is the ack of a job's first claim, whose record is always record 1 (`claim` only
-- grows and each claim ends once), so the ack statements (`settle.ts`) insert it from their own
-- RETURNING rows, one INSERT per batch, and the trigger leaves those rows alone: it no longer
-- fires for a row that becomes `completed` from claim 1 with a `claimed_at` (rows claimed before
-- migration 8 have none, and keep the trigger's record). Only the ack statements complete a row.

DROP TRIGGER IF EXISTS jobs_attempt_ended ON :BERTH_SCHEMA.jobs;
CREATE TRIGGER jobs_attempt_ended AFTER UPDATE ON :BERTH_SCHEMA.jobs
  FOR EACH ROW WHEN (OLD.state = 'running' AND (NEW.state <> 'running' OR NEW.claim <> OLD.claim)
    AND NOT (NEW.state = 'completed' AND OLD.claim = 1 AND OLD.claimed_at IS NOT NULL))
  EXECUTE FUNCTION :BERTH_SCHEMA.record_attempt();

INSERT INTO :BERTH_SCHEMA.migrations (version) VALUES (14) ON CONFLICT DO NOTHING;
