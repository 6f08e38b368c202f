/** Paused queues: one row per paused queue, read by the claim (claim_jobs_v2, migration 16). */
export function pauseSql(s: string) {
  return {
    /**
     * Stores the pause unless one holds and answers the pause that holds: a racing or repeated
     * pause waits on the row and answers its first instant (DO UPDATE returns the row as it
     * stands, which DO NOTHING would not). $1 queue, $2 now.
     */
    pause: `
      INSERT INTO ${s}.paused_queues AS p (queue, paused_at) VALUES ($1, $2::bigint)
      ON CONFLICT (queue) DO UPDATE SET paused_at = p.paused_at
      RETURNING paused_at`,

    /**
     * Removes the pause (if any) and wakes the queue's workers, in one statement: the NOTIFY is
     * delivered once the removal committed. $1 queue, $2 the NOTIFY channel.
     */
    resume: `
      WITH gone AS (DELETE FROM ${s}.paused_queues WHERE queue = $1 RETURNING queue)
      SELECT pg_notify($2, $1::text) AS woke, (SELECT count(*) FROM gone) AS removed`,

    /** Every paused queue in code-unit order (as stats). */
    list: `SELECT queue, paused_at FROM ${s}.paused_queues ORDER BY queue COLLATE "C"`,
  };
}
