-- Migration 11: the backfill ledger. `backfill_runs` holds one row per run, instants in epoch ms
-- as `jobs` keeps them; the cursor is jsonb and never SQL NULL (a null cursor is JSON `null`).
-- `backfill_runs_holder_idx` orders one (name, tenant)'s runs by start: start's active check and
-- its retention trim, and list by name, read that range alone, which retention keeps short;
-- `backfill_runs_started_idx` serves list without a name, newest first up to its limit.
-- start_backfill is the start: it takes a transaction-scoped advisory lock on (schema, name,
-- tenant) first, so two starts of one name take turns, and each statement after it reads with a
-- fresh snapshot (READ COMMITTED), so the second sees the run the first committed. Every answer
-- carries the run alike: int8 columns arrive as strings, the cursor as JSON text.

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
