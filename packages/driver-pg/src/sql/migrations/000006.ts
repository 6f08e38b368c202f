import { CLAIMED_COLUMNS } from './000004.js';
import { claimBodySql } from './000006-claim-body.js';

/**
 * Migration 6: claims in exact claim order over every due row. Waiting (delayed and suspended)
 * rows are indexed in claim order, `(queue[, name], priority desc, run_at, seq)`, instead of by
 * due instant, and claim_jobs walks them one priority level at a time (see claim-body.ts): a
 * level's oldest row says whether it holds a due row, so a claim costs one probe per level and
 * the rows it may take, however many rows fall due at once. Migration 4's claim read the 200
 * oldest due rows per queue, so a due row of higher priority behind them waited for later
 * claims. The function keeps migration 4's signature and settings.
 * Records its own version last, so it runs as one implicit transaction. `s` is the quoted schema.
 */
export const MIGRATION_000006 = (s: string): string => {
  const body = claimBodySql(s);
  return `
CREATE INDEX IF NOT EXISTS jobs_due_order_idx ON ${s}.jobs (queue, priority DESC, run_at, seq)
  WHERE state IN ('delayed', 'suspended');
CREATE INDEX IF NOT EXISTS jobs_due_order_name_idx
  ON ${s}.jobs (queue, name, priority DESC, run_at, seq) WHERE state IN ('delayed', 'suspended');
DROP INDEX IF EXISTS ${s}.jobs_due_idx;
DROP INDEX IF EXISTS ${s}.jobs_due_name_idx;

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

INSERT INTO ${s}.migrations (version) VALUES (6) ON CONFLICT DO NOTHING;
`;
};
