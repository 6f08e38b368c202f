const EVENT_COLUMNS = 'id, name, payload::text AS payload, published_at, expires_at';

/** Stored events. $n are listed per statement. */
export function eventsSql(s: string) {
  return {
    /**
     * Stores the event and makes every row suspended on it due now, in batches of $7 rows per
     * statement, waking each of their queues; serialized with suspend on the event name (see
     * migration 3). $1 id, $2 name, $3 payload, $4 now, $5 expires_at, $6 channel, $7 batch.
     */
    publish: `
      SELECT id, name, payload, published_at, expires_at, woken
      FROM ${s}.publish_event($1::uuid, $2::text, $3::json, $4::bigint, $5::bigint, $6::text,
        $7::int)`,

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

    /**
     * At most $2 expired events, oldest expiry first; one another transaction holds is skipped,
     * never waited for. $1 now, $2 limit.
     */
    purgeExpired: `
      WITH doomed AS (
        SELECT seq FROM ${s}.events
        WHERE expires_at <= $1::bigint
        ORDER BY expires_at, seq
        LIMIT $2
        FOR UPDATE SKIP LOCKED
      ), gone AS (DELETE FROM ${s}.events e USING doomed d WHERE e.seq = d.seq RETURNING 1)
      SELECT count(*) AS removed FROM gone`,
  };
}
