/** A job's progress: one fenced UPDATE of two columns, no index touched. */
export function progressSql(s: string) {
  return {
    /**
     * Lands only while the row is running under this worker and claim; no row back means the
     * fence no longer held. $1 id, $2 worker, $3 claim, $4 now, $5 value (JSON text).
     */
    progress: `
      UPDATE ${s}.jobs SET progress = $5::json, updated_at = $4::bigint
      WHERE id = $1 AND state = 'running' AND claimed_by = $2 AND claim = $3
      RETURNING 1 AS landed`,
  };
}
