// The PostgreSQL floor: a bare jobs table and the two statements a queue cannot do without,
// run by pgbench so no client library's cost is in the figure.

/** The scratch table: the columns a job row needs, one partial index for the claim. */
export const createFloorTable = (schema: string): string => `
CREATE SCHEMA IF NOT EXISTS ${schema};
CREATE TABLE ${schema}.floor_jobs (
  id bigserial PRIMARY KEY,
  queue text NOT NULL,
  name text NOT NULL,
  payload jsonb NOT NULL,
  state text NOT NULL,
  priority integer NOT NULL DEFAULT 0,
  run_at bigint NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  claimed_by text,
  visible_at bigint,
  finished_at bigint
);
CREATE INDEX floor_jobs_claim ON ${schema}.floor_jobs (queue, priority DESC, run_at, id)
  WHERE state = 'ready';`;

/**
 * The floor's session settings (PGOPTIONS): once the table has statistics (ANALYZE, or
 * autovacuum's auto-analyze of a 100k backlog) the planner trades the claim's ordered index scan
 * for a bitmap scan that sorts every ready row — 140 ms instead of 30 ms per 1,000 at 50k ready.
 * A floor is what the server does with the right plan, so the plan is pinned here (and that flip
 * is worth knowing about for any claim of the same shape).
 */
export const FLOOR_SESSION = '-c enable_bitmapscan=off -c enable_seqscan=off';

/** One pgbench transaction = 1,000 jobs inserted in one statement. */
export const FLOOR_BATCH = 1_000;

export const enqueueScript = (schema: string): string => `
INSERT INTO ${schema}.floor_jobs (queue, name, payload, state, run_at)
SELECT 'default', 'noop', jsonb_build_object('seq', g), 'ready', 0
FROM generate_series(1, ${FLOOR_BATCH}) AS g;
`;

/**
 * One pgbench transaction = claim 1,000 (FOR UPDATE SKIP LOCKED, in priority order), then mark
 * them completed by array in a second statement, each its own transaction as a worker's are.
 */
export const claimCompleteScript = (schema: string): string => `
WITH picked AS (
  SELECT id FROM ${schema}.floor_jobs
  WHERE queue = 'default' AND state = 'ready'
  ORDER BY priority DESC, run_at, id
  LIMIT ${FLOOR_BATCH}
  FOR UPDATE SKIP LOCKED
), claimed AS (
  UPDATE ${schema}.floor_jobs AS j
  SET state = 'running', attempts = j.attempts + 1, claimed_by = 'floor', visible_at = 60000
  FROM picked WHERE j.id = picked.id
  RETURNING j.id
)
SELECT coalesce(array_agg(id), '{}') AS ids FROM claimed
\\gset
UPDATE ${schema}.floor_jobs
SET state = 'completed', claimed_by = NULL, visible_at = NULL, finished_at = 1
WHERE id = ANY(CAST(:ids AS bigint[])) AND claimed_by = 'floor' AND state = 'running';
`;
