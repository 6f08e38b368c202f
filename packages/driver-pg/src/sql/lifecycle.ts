/** Whether event `u` passes the read's filters: $3 queue, $4 name, $5 job id, $6 tenant (NULL: any). */
const MATCHES = `($3::text IS NULL OR u.queue = $3::text) AND ($4::text IS NULL OR u.name = $4::text)
  AND ($5::uuid IS NULL OR u.job_id = $5::uuid) AND ($6::text IS NULL OR u.tenant_id = $6::text)`;

/**
 * The lifecycle stream (migration 17's `lifecycle_batches`: one row per writing statement, its
 * events as arrays), in (stamp, id, place) order. Reads and `end` look only below the horizon,
 * asked for first in a statement of its own: the read must take its snapshot after the
 * transactions below the horizon have ended.
 */
export function lifecycleSql(s: string) {
  return {
    /** $1 how long to wait (ms) for the transactions running now to end. */
    horizon: `SELECT ${s}.lifecycle_horizon($1::integer)::text AS horizon`,

    /**
     * Up to $2 events after position ($7 stamp, $8 id, $9 place; `0.0.0` reads from the oldest
     * kept) below horizon $1, in stream order, each with `hit` when it passes the filters ($3..$6).
     * The rows are walked one primary-key probe at a time, only as far as the events asked for
     * need, whatever the table holds or its statistics say.
     * `known` (on every row, and on the one row of nulls when no event follows) is false for a
     * position this stream never made ($10: one was given): at or past the horizon, past its
     * row's events, or missing while older rows remain (a trimmed row's position is older than
     * every kept one).
     */
    read: `
      WITH RECURSIVE known AS (
        SELECT NOT $10::bool OR ($7::xid8 < $1::xid8 AND coalesce(
          EXISTS (SELECT 1 FROM ${s}.lifecycle_batches b
            WHERE b.stamp = $7::xid8 AND b.id = $8::bigint AND $9::integer <= b.events)
          OR ($7::xid8, $8::bigint) < (SELECT b.stamp, b.id FROM ${s}.lifecycle_batches b
            ORDER BY b.stamp, b.id LIMIT 1), false)) AS known
      ), walk AS (
        (SELECT b.stamp, b.id, 0::bigint AS earlier, greatest(b.kept_from,
            CASE WHEN b.stamp = $7::xid8 AND b.id = $8::bigint THEN $9::integer + 1 ELSE 1 END)
            AS first, b.events
        FROM ${s}.lifecycle_batches b
        WHERE (SELECT k.known FROM known k) AND (b.stamp, b.id) >= ($7::xid8, $8::bigint)
          AND b.stamp < $1::xid8
        ORDER BY b.stamp, b.id LIMIT 1)
        UNION ALL
        (SELECT n.stamp, n.id, w.earlier + greatest(w.events - w.first + 1, 0), n.kept_from,
          n.events
        FROM walk w CROSS JOIN LATERAL (
          SELECT b.stamp, b.id, b.kept_from, b.events FROM ${s}.lifecycle_batches b
          WHERE (b.stamp, b.id) > (w.stamp, w.id) AND b.stamp < $1::xid8
          ORDER BY b.stamp, b.id LIMIT 1) n
        WHERE w.earlier + greatest(w.events - w.first + 1, 0) < $2::integer)
      )
      SELECT k.known, e.* FROM known k LEFT JOIN LATERAL (
        SELECT p.stamp::text AS stamp, p.id, u.place, u.job_id, u.type, u.name, u.queue,
          u.tenant_id, u.attempt, u.at, ${MATCHES} AS hit
        FROM walk p
        JOIN ${s}.lifecycle_batches b ON b.stamp = p.stamp AND b.id = p.id
        CROSS JOIN LATERAL unnest(b.job_ids, b.types, b.names, b.queues, b.tenant_ids,
            b.attempts, b.ats)
          WITH ORDINALITY AS u(job_id, type, name, queue, tenant_id, attempt, at, place)
        WHERE p.earlier < $2::integer AND u.place >= p.first
          AND u.place < p.first + ($2::integer - p.earlier)
        ORDER BY p.stamp, p.id, u.place
      ) e ON true`,

    /** The newest event below horizon $1: the last of the newest row. */
    end: `
      SELECT b.stamp::text AS stamp, b.id, b.events AS place FROM ${s}.lifecycle_batches b
      WHERE b.stamp < $1::xid8 ORDER BY b.stamp DESC, b.id DESC LIMIT 1`,

    /** Removes up to $2 of the oldest events beyond the newest $1; answers how many went. */
    trim: `SELECT ${s}.lifecycle_trim($1::integer, $2::integer) AS removed`,
  };
}
