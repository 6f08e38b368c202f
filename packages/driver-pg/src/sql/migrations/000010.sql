-- Migration 10: job logs (`ctx.log`). `job_log_heads` holds one row per job that logged: how many
-- lines it keeps, how many it dropped past the cap, and how far the current claim's holder got
-- (`claim`, `next`: what makes a retried batch land once). `job_logs` holds the lines by
-- (job_id, seq). Both go with their job through ON DELETE CASCADE, so purge (and any later call
-- that deletes jobs) removes them without naming them. append_job_logs is the fenced append: it
-- reads the fence FOR SHARE, so no settle lands between its check and its write, and the head
-- FOR UPDATE, so appends to one job apply one at a time; its work is the batch, never the log.

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
