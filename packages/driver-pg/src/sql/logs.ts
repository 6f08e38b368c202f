/** Job logs: the fenced append (migration 10's function) and the paged read. */
export function logsSql(s: string) {
  return {
    /**
     * $1 job id, $2 worker, $3 claim, $4 from, $5 instants, $6 levels, $7 messages (arrays of
     * one length), $8 the cap. Answers `landed`.
     */
    append: `SELECT ${s}.append_job_logs($1::uuid, $2::text, $3::bigint, $4::bigint,
      $5::bigint[], $6::text[], $7::text[], $8::integer) AS landed`,

    /**
     * The job's head row (seq 0, with `dropped`) when the job exists for the tenant, then up to
     * $4 lines with seq > $3. No row at all: no such job. $1 job id, $2 tenant or NULL.
     */
    list: `
      WITH job AS (
        SELECT id FROM ${s}.jobs WHERE id = $1 AND ($2::text IS NULL OR tenant_id = $2::text)
      )
      SELECT 0 AS seq, 0 AS attempt, 0::bigint AS at, '' AS level, '' AS message,
        coalesce((SELECT dropped FROM ${s}.job_log_heads WHERE job_id = $1), 0) AS dropped
      FROM job
      UNION ALL
      (SELECT l.seq, l.attempt, l.at, l.level, l.message, 0 AS dropped FROM ${s}.job_logs l
       WHERE l.job_id = $1 AND l.seq > $3 AND EXISTS (SELECT 1 FROM job)
       ORDER BY l.seq LIMIT $4)`,
  };
}
