import { JOB_COLUMN_NAMES, jobColumns } from './columns.js';

/**
 * delete: ONE statement. The row is locked (a claim holding it makes this wait, then re-read
 * it), removed unless it is running, and its steps go in the same statement; the jobs_listed
 * trigger drops its list entry and the live-key index frees its key with the row. Answers the
 * row as it stood with `deleted`, or the running row with `deleted` false, or nothing for an id
 * this tenant cannot see. $1 id, $2 tenant (NULL: any).
 */
export function deleteSql(s: string) {
  return {
    delete: `
      WITH target AS (
        SELECT ${jobColumns('j')} FROM ${s}.jobs j
        WHERE j.id = $1 AND ($2::text IS NULL OR j.tenant_id = $2::text)
        FOR UPDATE
      ), gone AS (
        DELETE FROM ${s}.jobs j USING target t
        WHERE j.id = t.id AND t.state <> 'running'
        RETURNING j.run_id
      ), steps_gone AS (
        DELETE FROM ${s}.steps st WHERE st.run_id IN (SELECT run_id FROM gone) RETURNING 1
      )
      SELECT ${JOB_COLUMN_NAMES}, EXISTS (SELECT 1 FROM gone) AS deleted,
        (SELECT count(*) FROM steps_gone) AS steps
      FROM target`,
  };
}
