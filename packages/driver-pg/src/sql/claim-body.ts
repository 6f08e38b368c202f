import { JOB_COLUMN_NAMES, jobColumns } from './columns.js';

const ORDER = 'ORDER BY priority DESC, run_at, seq';
/**
 * Leases found lapsed per queue a claim reads beyond its limit, oldest expiry first: enough that
 * the best of a few lapsed at once are seen in claim order, and each claim files more than it
 * can take, so none is left behind. A fixed batch instead made every small claim after a mass
 * lapse pay for that whole batch.
 */
export const LAPSE_SLACK = 16;
/**
 * An index walk's limit as a subquery: the planner cannot read its value, so it costs the walk
 * as stopping early, never against a Seq Scan and sort of jobs (which its cost model prefers
 * once the statistics say the backlog is about one batch).
 */
const upTo = (limit: string) => `LIMIT (SELECT ${limit}::int)`;
const WAITING = `j.state IN ('delayed', 'suspended')`;

/**
 * The claim's keys, per queue ($1) or, with names ($8), per queue and name: `list` as FROM items
 * aliased q and n, which `listMatch` ties jobs j to; `keys` their columns, and for a row k that
 * carries them, `key(k)` its key columns and `match(k)` the tie of jobs j to them.
 */
const keyed = (named: boolean) => ({
  list: named
    ? 'unnest($1::text[]) AS q(queue) CROSS JOIN unnest($8::text[]) AS n(name)'
    : 'unnest($1::text[]) AS q(queue)',
  listMatch: named ? 'j.queue = q.queue AND j.name = n.name' : 'j.queue = q.queue',
  keys: named ? 'q.queue, n.name' : 'q.queue',
  key: (k: string) => (named ? `${k}.queue, ${k}.name` : `${k}.queue`),
  match: (k: string) =>
    named ? `j.queue = ${k}.queue AND j.name = ${k}.name` : `j.queue = ${k}.queue`,
});
type Keyed = ReturnType<typeof keyed>;

/**
 * Due delayed or suspended rows in claim order, of every priority, at one probe per priority
 * level: `levels` walks jobs_due_order_idx (per name: jobs_due_order_name_idx, both
 * `(queue[, name], priority desc, run_at, seq)` over waiting rows) one level at a time, highest
 * first. A level's first row is its oldest, so a level whose first row is not due holds no due
 * row and costs that one probe; from a due level the walk locks the due rows in order, as many
 * as the claim may still take. It stops once it holds $3 rows per key, or at `cutoff`, the
 * priority of the $3-th best ready row, below which no row can be among the best $3 (read only
 * when a level is found, so a claim behind no waiting row never sorts the ready rows for it).
 */
const dueSources = (s: string, k: Keyed) => {
  const probe = (at: string, below: string) => `
          SELECT j.priority, j.run_at FROM ${s}.jobs j
          WHERE ${k.match(at)} AND ${WAITING}${below}
          ORDER BY j.priority DESC, j.run_at, j.seq
          LIMIT 1`;
  const take = (at: string, quota: string) => `
          SELECT count(*) AS n, array_agg(t.id) AS ids, array_agg(t.seq) AS seqs,
            array_agg(t.state) AS states, array_agg(t.run_at) AS run_ats
          FROM (
            SELECT j.id, j.seq, j.state, j.run_at FROM ${s}.jobs j
            WHERE ${k.match(at)} AND ${WAITING} AND j.priority = f.priority
              AND j.run_at <= $2::bigint
              AND f.run_at <= $2::bigint AND f.priority >= (SELECT priority FROM cutoff)
            ORDER BY j.run_at, j.seq
            LIMIT ${quota}
            FOR UPDATE SKIP LOCKED
          ) t`;
  return `
      cutoff AS (
        SELECT coalesce((SELECT priority FROM ready ${ORDER} OFFSET $3 - 1 LIMIT 1),
          -2147483648) AS priority
      ), levels AS (
        SELECT ${k.key('k')}, f.priority, d.n AS taken, d.ids, d.seqs, d.states, d.run_ats
        FROM (SELECT ${k.keys} FROM ${k.list}) k
        CROSS JOIN LATERAL (${probe('k', '')}
        ) f
        CROSS JOIN LATERAL (${take('k', '$3::int')}
        ) d
        UNION ALL
        SELECT ${k.key('w')}, f.priority, w.taken + d.n, d.ids, d.seqs, d.states, d.run_ats
        FROM levels w
        CROSS JOIN LATERAL (${probe('w', ' AND j.priority < w.priority')}
        ) f
        CROSS JOIN LATERAL (${take('w', '$3::int - w.taken')}
        ) d
        WHERE w.taken < $3::int AND w.priority > (SELECT priority FROM cutoff)
      ), due AS (
        SELECT unnest(l.ids) AS id, unnest(l.seqs) AS seq, unnest(l.states) AS state, l.priority,
          unnest(l.run_ats) AS run_at
        FROM levels l
      ),`;
};

/**
 * Where a claim finds its rows, per key (see `keyed`), each walk stopping after its limit:
 * ready rows (always due) in claim order from jobs_ready_idx, due delayed or suspended rows in
 * claim order (`dueSources`), and lapsed leases from two places: `lapsing`, the running rows of
 * each queue (every name) whose lease ran out since a claim last looked, oldest expiry first
 * from jobs_lease_expiry_idx (the claim's limit plus LAPSE_SLACK at most), and `marked`, those
 * an earlier claim found and left `lapsed`, in claim order from jobs_lapsed_idx (with attempts
 * left) or jobs_lapsed_final_idx (on their final attempt). No walk reads a lease that is still live, and
 * of the rows not due yet only the first of each priority above the rows taken.
 */
const sources = (s: string, named: boolean) => {
  const k = keyed(named);
  const markedWalk = (attempts: string, final: boolean) => `
        SELECT m.* FROM ${k.list}
        CROSS JOIN LATERAL (
          SELECT j.id, j.seq, j.state, j.priority, j.run_at, ${final} AS final FROM ${s}.jobs j
          WHERE ${k.listMatch} AND j.lapsed AND j.state = 'running' AND ${attempts}
          ${ORDER}
          ${upTo('$3')}
          FOR UPDATE SKIP LOCKED
        ) m`;
  return `
      ready AS (
        SELECT r.* FROM ${k.list}
        CROSS JOIN LATERAL (
          SELECT j.id, j.seq, j.state, j.priority, j.run_at FROM ${s}.jobs j
          WHERE ${k.listMatch} AND j.state = 'ready'
          ${ORDER}
          ${upTo('$3')}
          FOR UPDATE SKIP LOCKED
        ) r
      ), ${dueSources(s, k)} lapsing AS (
        SELECT l.* FROM unnest($1::text[]) AS q(queue)
        CROSS JOIN LATERAL (
          SELECT j.id, j.seq, j.state, j.priority, j.run_at, j.name,
            j.attempts >= j.max_attempts AS final
          FROM ${s}.jobs j
          WHERE j.queue = q.queue AND j.visible_at <= $2::bigint AND NOT j.lapsed
          ORDER BY j.visible_at
          ${upTo(`$3 + ${LAPSE_SLACK}`)}
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
 * `sources`), each locked SKIP LOCKED as it is read (at most $3 rows per source and key,
 * $3 + LAPSE_SLACK newly lapsed leases per queue); the best $3 are claimed. The newly lapsed
 * leases it neither claimed nor buried are marked `lapsed`, so they reach their claim-order index in
 * bounded steps (each row moves once), and no claim sorts more than it read. A due delayed row
 * it does not take stays as it is: the next claim finds it in claim order again.
 * $1 queues, $2 now, $3 limit, $4 worker, $5 visibility ms, $6 dropExhausted names,
 * $7 the LEASE_LAPSED error (JSON), $8 the job names to claim (null: every name); rows of
 * other names are neither claimed nor buried.
 *
 * Migration 9 installs these texts as the body of the claim_jobs function, behind its narrowing of
 * $1 to the unpaused queues (the parameters are the function's): a released migration never
 * changes, so a change here is a new migration that
 * replaces the function, and `migration-texts.test.ts` pins the installed text.
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
      WITH RECURSIVE ${sources(s, named)} retried AS (${lapsed(false)}
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
