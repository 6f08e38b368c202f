import { JOB_COLUMN_NAMES, jobColumns, LIVE, REQUEUEABLE } from './columns.js';
import { settleNoticeOf } from './settle-notice.js';

/** Tenancy on by-id calls: a named tenant sees only its own rows. `$n` is the tenant param. */
const tenantOf = (t: string, n: string) => `(${n}::text IS NULL OR ${t}.tenant_id = ${n}::text)`;

/**
 * An operator change in ONE statement that also answers why it did not land: the row as it was
 * (`moved` false), or nothing for an id this tenant cannot see. `condition` is over alias `t`;
 * `notice`, a SELECT of NOTIFYs over `moved` and `target`, is sent with the change.
 */
const operatorChange = (s: string, condition: string, set: string, notice: string) => `
  WITH target AS (
    SELECT ${jobColumns('j')} FROM ${s}.jobs j
    WHERE j.id = $1 AND ${tenantOf('j', '$2')}
    FOR UPDATE
  ), moved AS (
    UPDATE ${s}.jobs j SET ${set}
    FROM target t WHERE j.id = t.id AND ${condition}
    RETURNING ${jobColumns('j')}
  ), told AS (${notice})
  SELECT ${JOB_COLUMN_NAMES}, true AS moved, (SELECT count(*) FROM told) AS told FROM moved
  UNION ALL
  SELECT ${JOB_COLUMN_NAMES}, false AS moved, 0 FROM target
  WHERE NOT EXISTS (SELECT 1 FROM moved)`;

/**
 * get, cancel, promote and requeue. $1 id, $2 tenant, $3 now (and $4 the channel told; a cancel's
 * $5 the settle channel).
 */
export function operatorSql(s: string) {
  return {
    get: `SELECT ${jobColumns('j')} FROM ${s}.jobs j WHERE j.id = $1 AND ${tenantOf('j', '$2')}`,

    /**
     * A row that was `running` is told on the cancel channel ($4): its id, then its queue. The
     * row it cancelled is told on the settle channel ($5) while anyone watches.
     */
    cancel: operatorChange(
      s,
      `t.state IN ${LIVE}`,
      `state = 'cancelled', finished_at = $3::bigint, claimed_by = NULL, visible_at = NULL,
       wait_for = NULL, updated_at = $3::bigint`,
      `SELECT pg_notify($4, m.id::text || m.queue) FROM moved m
       JOIN target t ON t.id = m.id WHERE t.state = 'running'
       UNION ALL SELECT ${settleNoticeOf('$5', 'm.id')} FROM moved m`,
    ),

    promote: operatorChange(
      s,
      `t.state = 'delayed' AND t.run_at > $3::bigint`,
      `state = 'ready', run_at = $3::bigint, updated_at = $3::bigint`,
      'SELECT pg_notify($4, queue) FROM moved',
    ),

    /**
     * What requeue's checks read, in one statement: the row, a LIVE other holder of its key,
     * and whether `fromStep` ($3) names a step of its run.
     */
    requeueCheck: `
      SELECT ${jobColumns('j')},
        (SELECT h.id FROM ${s}.jobs h
          WHERE j.idempotency_key IS NOT NULL AND h.idempotency_key = j.idempotency_key
            AND h.name = j.name AND coalesce(h.tenant_id, '') = coalesce(j.tenant_id, '')
            AND h.state IN ${LIVE} AND h.id <> j.id
          LIMIT 1) AS holder_id,
        EXISTS (SELECT 1 FROM ${s}.steps st WHERE st.run_id = j.run_id AND st.name = $3::text)
          AS has_step
      FROM ${s}.jobs j WHERE j.id = $1 AND ${tenantOf('j', '$2')}`,

    /**
     * The requeue itself: ONE statement, conditional on the row still being requeueable, that
     * moves it and drops `fromStep` ($5) with every step written after it.
     * $1 id, $2 tenant, $3 now, $4 channel, $5 fromStep.
     */
    requeue: `
      WITH moved AS (
        UPDATE ${s}.jobs j SET
          state = 'ready', run_at = $3::bigint, attempts = 0, finished_at = NULL, result = NULL,
          claimed_by = NULL, visible_at = NULL, wait_for = NULL, updated_at = $3::bigint
        WHERE j.id = $1 AND ${tenantOf('j', '$2')} AND j.state IN ${REQUEUEABLE}
        RETURNING ${jobColumns('j')}
      ), cut AS (
        SELECT st.seq FROM ${s}.steps st JOIN moved m ON st.run_id = m.run_id
        WHERE st.name = $5::text
      ), dropped AS (
        DELETE FROM ${s}.steps st USING moved m
        WHERE st.run_id = m.run_id AND st.seq >= (SELECT seq FROM cut)
        RETURNING 1
      ), woke AS (SELECT pg_notify($4, queue) FROM moved)
      SELECT ${JOB_COLUMN_NAMES},
        (SELECT count(*) FROM dropped) AS dropped, (SELECT count(*) FROM woke) AS woke
      FROM moved`,
  };
}
