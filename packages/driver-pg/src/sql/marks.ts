/** Named monotonic marks: one row per name, raised only by a higher value. */
export function marksSql(s: string) {
  return {
    /** $1 name. */
    get: `SELECT value FROM ${s}.marks WHERE name = $1`,

    /**
     * Inserts the mark or raises it; a racing advance waits on the row and re-checks, so the
     * highest value wins and only a real rise answers a row. $1 name, $2 value.
     */
    advance: `
      INSERT INTO ${s}.marks AS m (name, value) VALUES ($1, $2::bigint)
      ON CONFLICT (name) DO UPDATE SET value = excluded.value WHERE m.value < excluded.value
      RETURNING 1 AS moved`,
  };
}
