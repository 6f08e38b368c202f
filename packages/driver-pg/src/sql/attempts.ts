/** A job's attempt history (written by migration 8's triggers), read by id. */
export function attemptsSql(s: string) {
  return {
    /**
     * The job (its id alone, when this tenant may see it) and its records oldest first: at most
     * MAX_ATTEMPT_RECORDS rows, by the primary key. No row back: no such job for this tenant.
     * $1 id, $2 tenant (NULL: any).
     */
    list: `
      SELECT j.id, a.seq, a.attempt, a.claim, a.worker, a.claimed_at, a.ended_at, a.outcome,
        a.error
      FROM ${s}.jobs j LEFT JOIN ${s}.job_attempts a ON a.job_id = j.id
      WHERE j.id = $1 AND ($2::text IS NULL OR j.tenant_id = $2::text)
      ORDER BY a.seq`,
  };
}
