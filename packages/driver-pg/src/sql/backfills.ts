/** A run's columns as every answer carries them: int8 arrive as strings, the cursor as JSON text. */
const RUN_COLUMNS =
  'run_id, name, tenant_id, status, cursor::text AS cursor, passes, rows_done, job_id, ' +
  'started_at, updated_at, finished_at, last_error';

/**
 * The backfill ledger (migration 11). Each change is ONE statement: start is start_backfill
 * (its advisory lock makes two starts of one name take turns); transition and commit are one
 * conditional UPDATE each, which under READ COMMITTED waits for a racing change of the row and
 * re-checks its condition on the row that change left, so of two racers at most one lands.
 */
export function backfillsSql(s: string) {
  return {
    /**
     * $1 run_id, $2 name, $3 tenant_id, $4 cursor (JSON text), $5 job_id, $6 maxActive,
     * $7 now, $8 final runs kept per (name, tenant).
     */
    start: `
      SELECT * FROM ${s}.start_backfill($1::uuid, $2::text, $3::text, $4::jsonb, $5::uuid,
        $6::int, $7::bigint, $8::int)`,

    /** $1 run_id, $2 tenant_id (NULL: any tenant's). */
    get: `
      SELECT ${RUN_COLUMNS} FROM ${s}.backfill_runs
      WHERE run_id = $1::uuid AND ($2::text IS NULL OR tenant_id = $2::text)`,

    /**
     * Lands only from a listed status. $1 run_id, $2 tenant_id (NULL: any tenant's), $3 from
     * (text[]), $4 to, $5 job_id (NULL: kept), $6 error (NULL: kept), $7 now, $8 whether `to`
     * is final (sets finished_at).
     */
    transition: `
      UPDATE ${s}.backfill_runs SET
        status = $4::text,
        job_id = coalesce($5::uuid, job_id),
        last_error = coalesce($6::text, last_error),
        updated_at = $7::bigint,
        finished_at = CASE WHEN $8::boolean THEN $7::bigint ELSE finished_at END
      WHERE run_id = $1::uuid AND ($2::text IS NULL OR tenant_id = $2::text)
        AND status = ANY($3::text[])
      RETURNING ${RUN_COLUMNS}`,

    /**
     * Lands only while the run is active and (job_id, passes) is the commit's: the fence.
     * $1 run_id, $2 job_id, $3 passes, $4 next (JSON text), $5 rows, $6 now, $7 whether next
     * is null (the run completes).
     */
    commit: `
      UPDATE ${s}.backfill_runs SET
        cursor = $4::jsonb,
        passes = passes + 1,
        rows_done = rows_done + $5::bigint,
        updated_at = $6::bigint,
        status = CASE WHEN $7::boolean THEN 'completed' ELSE status END,
        finished_at = CASE WHEN $7::boolean THEN $6::bigint ELSE finished_at END
      WHERE run_id = $1::uuid AND status IN ('running', 'paused')
        AND job_id = $2::uuid AND passes = $3::bigint
      RETURNING ${RUN_COLUMNS}`,

    /**
     * Newest start first. With a name, walks that name's runs in backfill_runs_holder_idx;
     * without one, backfill_runs_started_idx up to the limit. $1 name, $2 status, $3 tenant_id
     * (each NULL: any), $4 limit.
     */
    list: `
      SELECT ${RUN_COLUMNS} FROM ${s}.backfill_runs
      WHERE ($1::text IS NULL OR name = $1::text)
        AND ($2::text IS NULL OR status = $2::text)
        AND ($3::text IS NULL OR coalesce(tenant_id, '') = $3::text)
      ORDER BY started_at DESC, run_id DESC
      LIMIT $4::int`,
  };
}
