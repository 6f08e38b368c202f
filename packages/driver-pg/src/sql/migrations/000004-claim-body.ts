/**
 * Migration 4's claim_jobs body, frozen as released (the claim of today is `../claim-body.ts`).
 */
import { JOB_COLUMN_NAMES, jobColumns } from '../columns.js';

const ORDER = 'ORDER BY priority DESC, run_at, seq';
/**
 * Due delayed or suspended rows a claim considers (and promotes) at most, oldest due first; and
 * leases found lapsed per queue, oldest expiry first.
 */
const DUE_BATCH = 200;
/**
 * An index walk's limit as a subquery: the planner cannot read its value, so it costs the walk
 * as stopping early, never against a Seq Scan and sort of jobs (which its cost model prefers
 * once the statistics say the backlog is about one batch).
 */
const upTo = (limit: string) => `LIMIT (SELECT ${limit}::int)`;

/**
 * Where a claim finds its rows, per queue ($1) or, with names ($8), per queue and name, so that
 * each index walk stops after its limit: ready rows (always due) in claim order from
 * jobs_ready_idx, and the oldest due delayed or suspended rows from jobs_due_idx; a row that is
 * not due yet is never read. Lapsed leases come from two places: `lapsing`, the running rows of
 * each queue (every name) whose lease ran out since a claim last looked, oldest expiry first from
 * jobs_lease_expiry_idx (DUE_BATCH at most), and `marked`, those an earlier claim found and left
 * `lapsed`, in claim order from jobs_lapsed_idx (with attempts left) or jobs_lapsed_final_idx
 * (on their final attempt). Neither ever reads a lease that is still live.
 */
const sources = (s: string, named: boolean) => {
  const keys = named
    ? 'unnest($1::text[]) AS q(queue) CROSS JOIN unnest($8::text[]) AS n(name)'
    : 'unnest($1::text[]) AS q(queue)';
  const match = named ? 'j.queue = q.queue AND j.name = n.name' : 'j.queue = q.queue';
  const markedWalk = (attempts: string, final: boolean) => `
        SELECT m.* FROM ${keys}
        CROSS JOIN LATERAL (
          SELECT j.id, j.seq, j.state, j.priority, j.run_at, ${final} AS final FROM ${s}.jobs j
          WHERE ${match} AND j.lapsed AND j.state = 'running' AND ${attempts}
          ${ORDER}
          ${upTo('$3')}
          FOR UPDATE SKIP LOCKED
        ) m`;
  return `
      ready AS (
        SELECT r.* FROM ${keys}
        CROSS JOIN LATERAL (
          SELECT j.id, j.seq, j.state, j.priority, j.run_at FROM ${s}.jobs j
          WHERE ${match} AND j.state = 'ready'
          ${ORDER}
          ${upTo('$3')}
          FOR UPDATE SKIP LOCKED
        ) r
      ), due AS (
        SELECT d.* FROM ${keys}
        CROSS JOIN LATERAL (
          SELECT j.id, j.seq, j.state, j.priority, j.run_at FROM ${s}.jobs j
          WHERE ${match} AND j.state IN ('delayed', 'suspended') AND j.run_at <= $2::bigint
          ORDER BY j.run_at, j.seq
          ${upTo(String(DUE_BATCH))}
          FOR UPDATE SKIP LOCKED
        ) d
      ), lapsing AS (
        SELECT l.* FROM unnest($1::text[]) AS q(queue)
        CROSS JOIN LATERAL (
          SELECT j.id, j.seq, j.state, j.priority, j.run_at, j.name,
            j.attempts >= j.max_attempts AS final
          FROM ${s}.jobs j
          WHERE j.queue = q.queue AND j.visible_at <= $2::bigint AND NOT j.lapsed
          ORDER BY j.visible_at
          ${upTo(String(DUE_BATCH))}
          FOR UPDATE SKIP LOCKED
        ) l
      ), marked AS (${markedWalk('j.attempts < j.max_attempts', false)}
        UNION ALL${markedWalk('j.attempts >= j.max_attempts', true)}
      ),`;
};

/**
 * The claim's statement: ONE statement that hands out up to $3 claimable rows and, separately,
 * buries up to $3 final-attempt lapsed leases; both come back, told apart by state, in claim order.
 * Candidates are the ready rows, the due delayed or suspended rows and the lapsed leases (see
 * `sources`), each locked SKIP LOCKED as it is read (at most $3 rows per source, DUE_BATCH due
 * rows and newly lapsed leases per queue); the best $3 are claimed. The due delayed rows it
 * locked and did not claim become 'ready' (their effective state already), and the newly lapsed
 * leases it neither claimed nor buried are marked `lapsed`, so both reach their claim-order index
 * in bounded steps (each row moves once), and no claim sorts more than it read.
 * $1 queues, $2 now, $3 limit, $4 worker, $5 visibility ms, $6 dropExhausted names,
 * $7 the LEASE_LAPSED error (JSON), $8 the job names to claim (null: every name); rows of
 * other names are neither claimed nor buried.
 *
 * Migration 4 installs these texts as the body of the claim_jobs function (the parameters are
 * the function's), exactly as released: `migration-texts.test.ts` pins them. The claim of today
 * is `../claim-body.ts`, which a later migration installs in their place.
 */
export function claimBodySql(s: string) {
  return { every: claimText(s, false), named: claimText(s, true) };
}

/**
 * The rows of `source` (a CTE and its filter), which this statement locked: each is reached by
 * its primary key. The array keeps the planner from joining the batch to jobs (it sizes it at
 * a few rows whatever the statistics say, so never a scan of jobs), and the row's state as this
 * statement locked it is the one the update sees.
 */
const locked = (source: string) => `j.id = ANY(ARRAY(SELECT id FROM ${source}))`;

/**
 * Claims the claimable rows of `which` state: a resumed (suspended) row keeps its attempts.
 * Two updates over disjoint rows, so each answers whether it resumed without a join.
 */
const claimedSql = (s: string, which: string, attempts: string) => `
        UPDATE ${s}.jobs j SET
          state = 'running',
          claim = j.claim + 1,
          claimed_by = $4,
          visible_at = $2::bigint + $5::bigint,
          wait_for = NULL,
          lapsed = false,
          attempts = ${attempts},
          updated_at = $2::bigint
        WHERE ${locked(`claimable WHERE ${which}`)}
        RETURNING ${jobColumns('j')}`;

function claimText(s: string, named: boolean) {
  // The lapsed leases of the names asked for, found now or earlier, in claim order.
  const lapsed = (final: boolean) => `
        SELECT id, seq, state, priority, run_at FROM (
          SELECT id, seq, state, priority, run_at FROM marked WHERE final = ${final}
          UNION ALL
          SELECT id, seq, state, priority, run_at FROM lapsing
          WHERE final = ${final} AND ($8::text[] IS NULL OR name = ANY($8::text[]))) c
        ${ORDER}
        LIMIT $3`;
  return `
      WITH ${sources(s, named)} retried AS (${lapsed(false)}
      ), exhausted AS (${lapsed(true)}
      ), claimable AS (
        SELECT id, seq, state FROM (
          SELECT * FROM ready UNION ALL SELECT * FROM due UNION ALL SELECT * FROM retried) c
        ${ORDER}
        LIMIT $3
      ), claimed AS (${claimedSql(s, "state <> 'suspended'", 'j.attempts + 1')}
      ), resumed AS (${claimedSql(s, "state = 'suspended'", 'j.attempts')}
      ), buried AS (
        UPDATE ${s}.jobs j SET
          state = CASE WHEN j.name = ANY($6::text[]) THEN 'failed' ELSE 'dead' END,
          finished_at = $2::bigint,
          claimed_by = NULL,
          visible_at = NULL,
          last_error = $7::json,
          updated_at = $2::bigint
        WHERE ${locked('exhausted')}
        RETURNING ${jobColumns('j')}
      ), promoted AS (
        UPDATE ${s}.jobs j SET state = 'ready'
        WHERE ${locked("due WHERE state = 'delayed' AND seq NOT IN (SELECT seq FROM claimable)")}
        RETURNING 1
      ), found AS (
        UPDATE ${s}.jobs j SET lapsed = true
        WHERE ${locked('lapsing WHERE seq NOT IN (SELECT seq FROM claimable) AND seq NOT IN (SELECT seq FROM exhausted)')}
        RETURNING 1
      )
      SELECT ${JOB_COLUMN_NAMES}, false AS resumed FROM claimed
      UNION ALL
      SELECT ${JOB_COLUMN_NAMES}, true FROM resumed
      UNION ALL
      SELECT ${JOB_COLUMN_NAMES}, false FROM buried
      ${ORDER}`;
}
