/** The fence every settle presents: the row is running under this worker and claim. */
const fenced = (t: string, id: string, worker: string, claim: string) =>
  `${t}.id = ${id} AND ${t}.state = 'running' AND ${t}.claimed_by = ${worker} AND ${t}.claim = ${claim}`;

/** A nack's outcome for alias `t`: retry while attempts remain and the nack is not final. */
const retries = (t: string, final: string) =>
  `(NOT ${final} AND ${t}.attempts < ${t}.max_attempts)`;

const nackSet = (
  t: string,
  p: { now: string; error: string; retryAt: string; final: string; deadLetter: string },
) => `
  last_error = ${p.error}::json,
  state = CASE
    WHEN ${retries(t, p.final)} THEN
      CASE WHEN ${p.retryAt}::bigint > ${p.now}::bigint THEN 'delayed' ELSE 'ready' END
    WHEN ${p.deadLetter} THEN 'dead' ELSE 'failed' END,
  run_at = CASE
    WHEN ${retries(t, p.final)} THEN
      CASE WHEN ${p.retryAt}::bigint > ${p.now}::bigint THEN ${p.retryAt}::bigint ELSE ${p.now}::bigint END
    ELSE ${t}.run_at END,
  finished_at = CASE WHEN ${retries(t, p.final)} THEN ${t}.finished_at ELSE ${p.now}::bigint END,
  claimed_by = NULL,
  visible_at = NULL,
  updated_at = ${p.now}::bigint`;

/**
 * Fenced settles: each is ONE statement, and no row back means the fence no longer held.
 * Those that make work wake its queue in the same statement.
 */
export function settleSql(s: string) {
  return {
    /** $1 id, $2 worker, $3 claim, $4 now, $5 has result, $6 result. */
    ack: `
      UPDATE ${s}.jobs j SET
        state = 'completed',
        result = CASE WHEN $5::bool THEN $6::json ELSE j.result END,
        finished_at = $4::bigint, claimed_by = NULL, visible_at = NULL, updated_at = $4::bigint
      WHERE ${fenced('j', '$1', '$2', '$3')}
      RETURNING 1 AS landed`,

    /** $1 id, $2 worker, $3 claim, $4 now, $5 error, $6 retryAt, $7 final, $8 deadLetter, $9 channel. */
    nack: `
      WITH moved AS (
        UPDATE ${s}.jobs j SET ${nackSet('j', { now: '$4', error: '$5', retryAt: '$6', final: '$7::bool', deadLetter: '$8::bool' })}
        WHERE ${fenced('j', '$1', '$2', '$3')}
        RETURNING j.queue, j.state
      ), woke AS (SELECT pg_notify($9, queue) FROM moved WHERE state IN ('ready', 'delayed'))
      SELECT 1 AS landed, (SELECT count(*) FROM woke) AS woke FROM moved`,

    /**
     * With $7 eventsSince (only ever alongside $6 waitFor): when a live $6 event published at or
     * after $7 is already stored, the row is due now instead of at until. With $6 it first takes
     * the event name's lock, as publish does (see migration 3), so the two never miss each other.
     * $1 id, $2 worker, $3 claim, $4 now, $5 until, $6 waitFor, $7 eventsSince, $8 channel.
     */
    suspend: `
      SELECT landed, woke
      FROM ${s}.suspend_job($1::uuid, $2::text, $3::bigint, $4::bigint, $5::bigint, $6::text,
        $7::bigint, $8::text)`,

    /** $1 id, $2 worker, $3 claim, $4 now, $5 visibility ms. */
    extend: `
      UPDATE ${s}.jobs j SET visible_at = $4::bigint + $5::bigint, updated_at = $4::bigint
      WHERE ${fenced('j', '$1', '$2', '$3')}
      RETURNING 1 AS landed`,

    /**
     * Many acks in ONE statement. Per job only the FIRST item whose fence holds can land: after
     * it the row is no longer running, exactly as the items applied one by one.
     * $1 ids, $2 workers, $3 claims, $4 has result, $5 results; $6 now.
     */
    ackMany: `
      WITH items AS (
        SELECT * FROM unnest($1::uuid[], $2::text[], $3::bigint[], $4::bool[], $5::text[])
          WITH ORDINALITY AS t(id, worker, claim, has_result, result, ord)
      ), hits AS (
        SELECT DISTINCT ON (i.id) i.* FROM items i
        JOIN ${s}.jobs j ON ${fenced('j', 'i.id', 'i.worker', 'i.claim')}
        ORDER BY i.id, i.ord
      )
      UPDATE ${s}.jobs j SET
        state = 'completed',
        result = CASE WHEN h.has_result THEN h.result::json ELSE j.result END,
        finished_at = $6::bigint, claimed_by = NULL, visible_at = NULL, updated_at = $6::bigint
      FROM hits h WHERE ${fenced('j', 'h.id', 'h.worker', 'h.claim')}
      RETURNING h.ord`,

    /**
     * Many nacks in ONE statement, as ackMany; one NOTIFY per queue that got work back.
     * $1 ids, $2 workers, $3 claims, $4 errors, $5 retryAts, $6 finals, $7 deadLetters;
     * $8 now, $9 channel.
     */
    nackMany: `
      WITH items AS (
        SELECT * FROM unnest($1::uuid[], $2::text[], $3::bigint[], $4::text[], $5::bigint[],
          $6::bool[], $7::bool[])
          WITH ORDINALITY AS t(id, worker, claim, error, retry_at, final, dead_letter, ord)
      ), hits AS (
        SELECT DISTINCT ON (i.id) i.* FROM items i
        JOIN ${s}.jobs j ON ${fenced('j', 'i.id', 'i.worker', 'i.claim')}
        ORDER BY i.id, i.ord
      ), moved AS (
        UPDATE ${s}.jobs j SET ${nackSet('j', { now: '$8', error: 'h.error', retryAt: 'h.retry_at', final: 'h.final', deadLetter: 'h.dead_letter' })}
        FROM hits h WHERE ${fenced('j', 'h.id', 'h.worker', 'h.claim')}
        RETURNING h.ord, j.queue, j.state
      ), woke AS (
        SELECT pg_notify($9, q.queue)
        FROM (SELECT DISTINCT queue FROM moved WHERE state IN ('ready', 'delayed')) q
      )
      SELECT ord, (SELECT count(*) FROM woke) AS woke FROM moved`,
  };
}
