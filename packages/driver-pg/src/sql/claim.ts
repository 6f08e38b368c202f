import { JOB_COLUMN_NAMES, jobColumns } from './columns.js';

const ORDER = 'ORDER BY priority DESC, run_at, seq';
/** The claim's `names` filter: $8 is null for every name. */
const NAMED = '($8::text[] IS NULL OR j.name = ANY($8::text[]))';

/**
 * The claim: ONE statement that hands out up to $3 claimable rows and, separately, buries up
 * to $3 final-attempt lapsed leases; both come back, told apart by state, in claim order.
 * Due rows are walked per queue down `jobs_claim_idx` (so a claim stops after its limit);
 * lapsed leases come from `jobs_lease_idx`. Each source locks at most $3 rows, SKIP LOCKED,
 * and the best $3 of them are claimed.
 * $1 queues, $2 now, $3 limit, $4 worker, $5 visibility ms, $6 dropExhausted names,
 * $7 the LEASE_LAPSED error (JSON), $8 the job names to claim (null: every name); rows of
 * other names are neither claimed nor buried.
 */
export function claimSql(s: string) {
  const lapsed = (attempts: string) => `
    SELECT j.seq, j.state, j.priority, j.run_at FROM ${s}.jobs j
    WHERE j.queue = ANY($1::text[]) AND j.state = 'running' AND j.visible_at <= $2::bigint
      AND ${attempts} AND ${NAMED}
    ${ORDER}
    LIMIT $3
    FOR UPDATE SKIP LOCKED`;
  return {
    claim: `
      WITH due AS (
        SELECT d.* FROM unnest($1::text[]) AS q(queue)
        CROSS JOIN LATERAL (
          SELECT j.seq, j.state, j.priority, j.run_at FROM ${s}.jobs j
          WHERE j.queue = q.queue AND j.state IN ('ready', 'delayed', 'suspended')
            AND (j.state = 'ready' OR j.run_at <= $2::bigint) AND ${NAMED}
          ${ORDER}
          LIMIT $3
          FOR UPDATE SKIP LOCKED
        ) d
      ), retried AS (${lapsed('j.attempts < j.max_attempts')}
      ), exhausted AS (${lapsed('j.attempts >= j.max_attempts')}
      ), claimable AS (
        SELECT seq, state FROM (SELECT * FROM due UNION ALL SELECT * FROM retried) c
        ${ORDER}
        LIMIT $3
      ), claimed AS (
        UPDATE ${s}.jobs j SET
          state = 'running',
          claim = j.claim + 1,
          claimed_by = $4,
          visible_at = $2::bigint + $5::bigint,
          wait_for = NULL,
          attempts = CASE WHEN c.state = 'suspended' THEN j.attempts ELSE j.attempts + 1 END,
          updated_at = $2::bigint
        FROM claimable c WHERE j.seq = c.seq
        RETURNING ${jobColumns('j')}, c.state = 'suspended' AS resumed
      ), buried AS (
        UPDATE ${s}.jobs j SET
          state = CASE WHEN j.name = ANY($6::text[]) THEN 'failed' ELSE 'dead' END,
          finished_at = $2::bigint,
          claimed_by = NULL,
          visible_at = NULL,
          last_error = $7::json,
          updated_at = $2::bigint
        FROM exhausted e WHERE j.seq = e.seq
        RETURNING ${jobColumns('j')}, false AS resumed
      )
      SELECT ${JOB_COLUMN_NAMES}, resumed FROM claimed
      UNION ALL
      SELECT ${JOB_COLUMN_NAMES}, resumed FROM buried
      ${ORDER}`,
  };
}
