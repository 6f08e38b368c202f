import { effectiveStateSql, jobColumns } from './columns.js';

/**
 * list, stats and purge. List is keyset over (created_at, seq), walked in jobs_listed's primary
 * key; each row it reaches is read from jobs by id (a lateral read, so one probe per row and
 * never a join that scans jobs), and the filters apply to it there. The limit is a subquery, so
 * the planner costs the walk as stopping early rather than sorting every row.
 * $1 now, $2 state (effective), $3 queue, $4 name, $5 tenant, $6 limit + 1, $7/$8 the cursor's
 * createdAt/seq.
 */
export function listSql(s: string) {
  const filters = `
    ($2::text IS NULL OR ${effectiveStateSql('j', '$1::bigint')} = $2::text)
    AND ($3::text IS NULL OR j.queue = $3::text)
    AND ($4::text IS NULL OR j.name = $4::text)
    AND ($5::text IS NULL OR j.tenant_id = $5::text)`;
  const page = (after: string, order: 'ASC' | 'DESC') => `
      SELECT ${jobColumns('j')} FROM ${s}.jobs_listed l
      CROSS JOIN LATERAL (SELECT * FROM ${s}.jobs j WHERE j.id = l.id OFFSET 0) j
      WHERE ${filters} AND ${after}
      ORDER BY l.created_at ${order}, l.seq ${order}
      LIMIT (SELECT $6::int)`;
  return {
    /** From the newest, or strictly after the cursor, in list order. */
    forward: page(
      '($7::bigint IS NULL OR (l.created_at, l.seq) < ($7::bigint, $8::bigint))',
      'DESC',
    ),

    /** Strictly before the cursor, nearest first. */
    backward: page('(l.created_at, l.seq) > ($7::bigint, $8::bigint)', 'ASC'),

    /** Per queue, counts by effective state and the oldest ready runAt. $1 now. */
    stats: `
      SELECT queue,
        count(*) FILTER (WHERE st = 'ready') AS ready,
        count(*) FILTER (WHERE st = 'delayed') AS delayed,
        count(*) FILTER (WHERE st = 'running') AS running,
        count(*) FILTER (WHERE st = 'suspended') AS suspended,
        count(*) FILTER (WHERE st = 'completed') AS completed,
        count(*) FILTER (WHERE st = 'failed') AS failed,
        count(*) FILTER (WHERE st = 'dead') AS dead,
        count(*) FILTER (WHERE st = 'cancelled') AS cancelled,
        min(run_at) FILTER (WHERE st = 'ready') AS oldest_ready
      FROM (SELECT j.queue, j.run_at, ${effectiveStateSql('j', '$1::bigint')} AS st FROM ${s}.jobs j) x
      GROUP BY queue
      ORDER BY queue COLLATE "C"`,

    /**
     * Purge: at most $3 rows, oldest finish first (then insertion order), with the steps of the
     * runs it removes. A row another transaction holds is skipped, never waited for.
     * $1 states, $2 olderThan, $3 limit. Each state is walked on its own index range (at most
     * $3 rows each), so the cost never depends on the backlog or on the table's statistics.
     */
    purge: purgeSql(
      s,
      `SELECT c.id, c.seq, c.finished_at FROM unnest($1::text[]) AS st(state)
        CROSS JOIN LATERAL (
          SELECT j.id, j.seq, j.finished_at FROM ${s}.jobs j
          WHERE j.state = st.state AND j.finished_at IS NOT NULL AND j.finished_at < $2::bigint
          ORDER BY j.finished_at, j.seq
          LIMIT $3
          FOR UPDATE SKIP LOCKED
        ) c`,
    ),

    /** The same among chosen ids (at most MAX_JOB_PAGE): $4 ids, found by their unique index. */
    purgeIds: purgeSql(
      s,
      `SELECT id, seq, finished_at FROM ${s}.jobs
        WHERE id = ANY($4::uuid[]) AND state = ANY($1::text[])
          AND finished_at IS NOT NULL AND finished_at < $2::bigint
        FOR UPDATE SKIP LOCKED`,
    ),
  };
}

/**
 * Deletes the oldest $3 of `candidates` (id, seq, finished_at) with their steps; counts both.
 * The doomed rows are reached by primary key (an array: never a join that could scan jobs).
 */
function purgeSql(s: string, candidates: string): string {
  return `
      WITH candidates AS (${candidates}), doomed AS (
        SELECT id FROM candidates ORDER BY finished_at, seq LIMIT $3
      ), gone AS (
        DELETE FROM ${s}.jobs j WHERE j.id = ANY(ARRAY(SELECT id FROM doomed)) RETURNING j.run_id
      ), steps_gone AS (
        DELETE FROM ${s}.steps st WHERE st.run_id IN (SELECT run_id FROM gone) RETURNING 1
      )
      SELECT (SELECT count(*) FROM gone) AS removed, (SELECT count(*) FROM steps_gone) AS steps`;
}
