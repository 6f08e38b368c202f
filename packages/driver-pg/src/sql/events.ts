const EVENT_COLUMNS = 'id, name, payload::text AS payload, published_at, expires_at';

/** Stored events. $n are listed per statement. */
export function eventsSql(s: string) {
  return {
    /**
     * Stores the event and, in the same statement, makes every row suspended on it due now,
     * waking each of their queues once. $1 id, $2 name, $3 payload, $4 now, $5 expires_at,
     * $6 channel.
     */
    publish: `
      WITH ev AS (
        INSERT INTO ${s}.events (id, name, payload, published_at, expires_at)
        VALUES ($1, $2, $3::json, $4, $5)
        RETURNING ${EVENT_COLUMNS}
      ), resumed AS (
        UPDATE ${s}.jobs SET run_at = $4::bigint, updated_at = $4::bigint
        WHERE state = 'suspended' AND wait_for = $2::text
        RETURNING queue
      ), woke AS (
        SELECT pg_notify($6, q.queue) FROM (SELECT DISTINCT queue FROM resumed) q
      )
      SELECT ev.*, (SELECT count(*) FROM woke) AS woke FROM ev`,

    /**
     * The first live event matching in publish order (seq; published_at only filters, so skewed
     * publisher clocks never reorder): each top-level key of $4 present in the payload with an
     * equal value (jsonb equality is deep). $1 name, $2 now, $3 after, $4 match or NULL.
     */
    find: `
      SELECT ${EVENT_COLUMNS} FROM ${s}.events e
      WHERE e.name = $1 AND e.expires_at > $2::bigint AND e.published_at >= $3::bigint
        AND ($4::jsonb IS NULL OR (
          json_typeof(e.payload) = 'object'
          AND NOT EXISTS (
            SELECT 1 FROM jsonb_each($4::jsonb) m
            WHERE NOT (e.payload::jsonb ? m.key AND (e.payload::jsonb -> m.key) = m.value))))
      ORDER BY e.seq
      LIMIT 1`,

    /** Live events, all or of $2, in publish order. $1 now. */
    list: `
      SELECT ${EVENT_COLUMNS} FROM ${s}.events
      WHERE expires_at > $1::bigint AND ($2::text IS NULL OR name = $2::text)
      ORDER BY seq`,

    /** $1 now. */
    purgeExpired: `
      WITH gone AS (DELETE FROM ${s}.events WHERE expires_at <= $1::bigint RETURNING 1)
      SELECT count(*) AS removed FROM gone`,
  };
}
