const STEP_COLUMNS =
  'run_id, name, status, output::text AS output, error::text AS error, attempts, wake_at, ' +
  'event_name, event_id, started_at, updated_at';

/** Step reads, and the fenced put: ONE statement that checks the fence and upserts. */
export function stepsSql(s: string) {
  return {
    /** $1 run_id, $2 name. */
    get: `SELECT ${STEP_COLUMNS} FROM ${s}.steps WHERE run_id = $1 AND name = $2`,

    /** Write order: a name's first put took the sequence value it keeps. $1 run_id. */
    list: `SELECT ${STEP_COLUMNS} FROM ${s}.steps WHERE run_id = $1 ORDER BY seq`,

    /**
     * The fence is read with FOR SHARE, so no settle of the job can land between the check and
     * the write. Answers the fenced job's run (NULL when the fence does not hold) and whether
     * the step was written. $1 job id, $2 worker, $3 claim, $4 run_id, $5 name, $6 status,
     * $7 output, $8 error, $9 attempts, $10 wake_at, $11 event_name, $12 event_id,
     * $13 started_at, $14 updated_at.
     */
    put: `
      WITH fence AS (
        SELECT run_id FROM ${s}.jobs
        WHERE id = $1 AND state = 'running' AND claimed_by = $2 AND claim = $3
        FOR SHARE
      ), written AS (
        INSERT INTO ${s}.steps (run_id, name, status, output, error, attempts, wake_at,
          event_name, event_id, started_at, updated_at)
        SELECT $4, $5, $6, $7::json, $8::json, $9, $10, $11, $12, $13, $14
        FROM fence WHERE fence.run_id = $4::uuid
        ON CONFLICT (run_id, name) DO UPDATE SET
          status = excluded.status, output = excluded.output, error = excluded.error,
          attempts = excluded.attempts, wake_at = excluded.wake_at,
          event_name = excluded.event_name, event_id = excluded.event_id,
          started_at = excluded.started_at, updated_at = excluded.updated_at
        RETURNING 1
      )
      SELECT (SELECT run_id FROM fence) AS fenced_run, EXISTS (SELECT 1 FROM written) AS written`,
  };
}
