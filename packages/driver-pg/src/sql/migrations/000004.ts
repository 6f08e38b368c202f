import { claimBodySql } from './000004-claim-body.js';

/**
 * Migration 4: lapsed leases in claim order, and the claim as a function, claim_jobs, whose
 * statement PostgreSQL plans once per session instead of on every call (planning the claim cost
 * more than running it on an idle queue). Its generic plan walks the same indexes as a plan for
 * given arguments, behind any backlog and whatever the statistics say, also when it was made on
 * an empty table (`claim-plan.test.ts`). Its settings: sequential scans off, as a plan made while the
 * table looked empty would otherwise reach the claimed rows by scanning jobs (every access is by
 * an index); JIT off, as the generic plan's cost estimate crosses `jit_above_cost` and
 * compiling it cost ~70 ms a call.
 * Records its own version last, so it runs as one implicit transaction. `s` is the quoted schema.
 */
export const CLAIMED_COLUMNS = `seq bigint, id uuid, run_id uuid, name text, queue text, payload text,
  state text, priority integer, attempts integer, max_attempts integer, run_at bigint,
  created_at bigint, updated_at bigint, finished_at bigint, claimed_by text, claim bigint,
  visible_at bigint, last_error text, result text, progress text, idempotency_key text,
  concurrency_key text, tenant_id text, traceparent text, enqueued_by text, wait_for text,
  resumed boolean`;

export const MIGRATION_000004 = (s: string): string => {
  const body = claimBodySql(s);
  return `
-- Lapsed leases in claim order. A claim finds leases that ran out in jobs_lease_expiry_idx, a
-- bounded batch at a time, oldest expiry first, and marks those it does not take at once
-- \`lapsed\`, which moves them out of that index and into the claim-order ones below: no claim
-- sorts every lapsed lease of a queue (a fleet that died holding 50k leases made each claim
-- sort 50k rows). A row leaves them when it is claimed again, settled or its lease renewed.
ALTER TABLE ${s}.jobs ADD COLUMN IF NOT EXISTS lapsed boolean NOT NULL DEFAULT false;
CREATE INDEX IF NOT EXISTS jobs_lease_expiry_idx ON ${s}.jobs (queue, visible_at)
  WHERE visible_at IS NOT NULL AND NOT lapsed;
DROP INDEX IF EXISTS ${s}.jobs_lapse_idx;
CREATE INDEX IF NOT EXISTS jobs_lapsed_idx ON ${s}.jobs (queue, priority DESC, run_at, seq)
  WHERE lapsed AND state = 'running' AND attempts < max_attempts;
CREATE INDEX IF NOT EXISTS jobs_lapsed_name_idx
  ON ${s}.jobs (queue, name, priority DESC, run_at, seq)
  WHERE lapsed AND state = 'running' AND attempts < max_attempts;
CREATE INDEX IF NOT EXISTS jobs_lapsed_final_idx ON ${s}.jobs (queue, priority DESC, run_at, seq)
  WHERE lapsed AND state = 'running' AND attempts >= max_attempts;
CREATE INDEX IF NOT EXISTS jobs_lapsed_final_name_idx
  ON ${s}.jobs (queue, name, priority DESC, run_at, seq)
  WHERE lapsed AND state = 'running' AND attempts >= max_attempts;

-- The body refers to its arguments as $1..$8: p_names null claims every name.
CREATE OR REPLACE FUNCTION ${s}.claim_jobs(
  p_queues text[], p_now bigint, p_limit integer, p_worker text, p_visibility_ms bigint,
  p_drop_exhausted text[], p_lapsed_error json, p_names text[])
RETURNS TABLE (${CLAIMED_COLUMNS})
LANGUAGE plpgsql VOLATILE
SET plan_cache_mode = force_generic_plan
SET jit = off
SET enable_seqscan = off
AS $fn$
#variable_conflict use_column
BEGIN
  IF p_names IS NULL THEN
    RETURN QUERY ${body.every};
  ELSE
    RETURN QUERY ${body.named};
  END IF;
END
$fn$;

INSERT INTO ${s}.migrations (version) VALUES (4) ON CONFLICT DO NOTHING;
`;
};
