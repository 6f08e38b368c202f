import { claimBodySql } from '../claim-body.js';
import { CLAIMED_COLUMNS } from './000004.js';

/**
 * Migration 9: paused queues, and a claim that files newly lapsed leases in batches of its limit
 * plus LAPSE_SLACK (see claim-body.ts), not 200. `paused_queues` holds one row per paused queue,
 * and claim_jobs leaves those queues out of its argument before reading any row (one primary-key
 * probe per queue asked for), so a claim that starts after a pause committed takes nothing from
 * the queue: neither claims nor buries. After a mass lapse every claim of migration 6 locked and
 * marked 200 rows whatever its limit; now that work grows with its limit only. The function keeps
 * migration 6's signature and settings.
 * Records its own version last, so it runs as one implicit transaction. `s` is the quoted schema.
 */
export const MIGRATION_000009 = (s: string): string => {
  const body = claimBodySql(s);
  return `
CREATE TABLE IF NOT EXISTS ${s}.paused_queues (
  queue text PRIMARY KEY,
  paused_at bigint NOT NULL
);

-- The body refers to its arguments as $1..$8: p_queues ($1) is narrowed to the unpaused queues.
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
  p_queues := ARRAY(
    SELECT u.queue FROM unnest(p_queues) AS u(queue)
    WHERE NOT EXISTS (SELECT 1 FROM ${s}.paused_queues p WHERE p.queue = u.queue));
  IF cardinality(p_queues) = 0 THEN
    RETURN;
  END IF;
  IF p_names IS NULL THEN
    RETURN QUERY ${body.every};
  ELSE
    RETURN QUERY ${body.named};
  END IF;
END
$fn$;

INSERT INTO ${s}.migrations (version) VALUES (9) ON CONFLICT DO NOTHING;
`;
};
