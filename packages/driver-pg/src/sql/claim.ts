import { JOB_COLUMN_NAMES, jobColumns } from './columns.js';

const ORDER = 'ORDER BY priority DESC, run_at, seq';
/** The claim's `names` filter: $8 is null for every name. */
const NAMED = '($8::text[] IS NULL OR j.name = ANY($8::text[]))';
/** Due delayed or suspended rows a claim considers (and promotes) at most, oldest due first. */
export const DUE_BATCH = 200;

/**
 * Where a claim finds its rows, per queue ($1) or, with names ($8), per queue and name, so that
 * each index walk stops after its limit: ready rows (always due) in claim order from
 * jobs_ready_idx, and the oldest due delayed or suspended rows from jobs_due_idx; a row that is
 * not due yet is never read.
 */
const sources = (s: string, named: boolean) => {
  const keys = named
    ? 'unnest($1::text[]) AS q(queue) CROSS JOIN unnest($8::text[]) AS n(name)'
    : 'unnest($1::text[]) AS q(queue)';
  const match = named ? 'j.queue = q.queue AND j.name = n.name' : 'j.queue = q.queue';
  return `
      ready AS (
        SELECT r.* FROM ${keys}
        CROSS JOIN LATERAL (
          SELECT j.seq, j.state, j.priority, j.run_at FROM ${s}.jobs j
          WHERE ${match} AND j.state = 'ready'
          ${ORDER}
          LIMIT $3
          FOR UPDATE SKIP LOCKED
        ) r
      ), due_all AS (
        SELECT d.* FROM ${keys}
        CROSS JOIN LATERAL (
          SELECT j.seq, j.state, j.priority, j.run_at FROM ${s}.jobs j
          WHERE ${match} AND j.state IN ('delayed', 'suspended') AND j.run_at <= $2::bigint
          ORDER BY j.run_at, j.seq
          LIMIT ${DUE_BATCH}
        ) d
      ), due AS (
        SELECT j.seq, j.state, j.priority, j.run_at FROM ${s}.jobs j
        WHERE j.seq IN (SELECT seq FROM due_all)
          AND j.state IN ('delayed', 'suspended') AND j.run_at <= $2::bigint
        ${ORDER}
        LIMIT $3
        FOR UPDATE SKIP LOCKED
      ),`;
};

/**
 * The claim: ONE statement that hands out up to $3 claimable rows and, separately, buries up
 * to $3 final-attempt lapsed leases; both come back, told apart by state, in claim order.
 * Candidates are the ready rows and the due delayed or suspended rows (see `sources`) and the
 * lapsed leases from jobs_lease_idx, each source locking at most $3 rows SKIP LOCKED; the best
 * $3 are claimed. The due delayed rows it read and did not claim become 'ready' (their
 * effective state already), so they reach the ready index in bounded steps.
 * $1 queues, $2 now, $3 limit, $4 worker, $5 visibility ms, $6 dropExhausted names,
 * $7 the LEASE_LAPSED error (JSON), $8 the job names to claim (null: every name); rows of
 * other names are neither claimed nor buried.
 */
export function claimSql(s: string) {
  return { claim: claimText(s, false), claimNamed: claimText(s, true) };
}

function claimText(s: string, named: boolean) {
  const lapsed = (attempts: string) => `
    SELECT j.seq, j.state, j.priority, j.run_at FROM ${s}.jobs j
    WHERE j.queue = ANY($1::text[]) AND j.state = 'running' AND j.visible_at <= $2::bigint
      AND ${attempts} AND ${NAMED}
    ${ORDER}
    LIMIT $3
    FOR UPDATE SKIP LOCKED`;
  return `
      WITH ${sources(s, named)} retried AS (${lapsed('j.attempts < j.max_attempts')}
      ), exhausted AS (${lapsed('j.attempts >= j.max_attempts')}
      ), claimable AS (
        SELECT seq, state FROM (
          SELECT * FROM ready UNION ALL SELECT * FROM due UNION ALL SELECT * FROM retried) c
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
      ), promoted AS (
        UPDATE ${s}.jobs j SET state = 'ready'
        WHERE j.seq IN (
          SELECT p.seq FROM ${s}.jobs p
          WHERE p.seq IN (SELECT seq FROM due_all WHERE state = 'delayed')
            AND p.seq NOT IN (SELECT seq FROM claimable)
            AND p.state = 'delayed' AND p.run_at <= $2::bigint
          FOR UPDATE SKIP LOCKED)
        RETURNING 1
      )
      SELECT ${JOB_COLUMN_NAMES}, resumed FROM claimed
      UNION ALL
      SELECT ${JOB_COLUMN_NAMES}, resumed FROM buried
      ${ORDER}`;
}
