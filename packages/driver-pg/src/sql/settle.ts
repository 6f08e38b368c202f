import { eventCounts } from './event-match.js';
import { settleNoticeOf, settleNotices } from './settle-notice.js';

/** The fence every settle presents: the row is running under this worker and claim. */
const fenced = (t: string, id: string, worker: string, claim: string) =>
  `${t}.id = ${id} AND ${t}.state = 'running' AND ${t}.claimed_by = ${worker} AND ${t}.claim = ${claim}`;

/**
 * A batch's `items` (id, worker, claim, ..., ord), the first item per fence. At most one fence
 * of an id holds (a row has one claimed_by and claim), so per row the update below meets the
 * first item whose fence holds, as the items applied one by one would land; the batch alone
 * decides this, without a probe of jobs per item.
 */
const hits = `
        SELECT DISTINCT ON (i.id, i.worker, i.claim) i.*, 'running'::text AS running FROM items i
        ORDER BY i.id, i.worker, i.claim, i.ord`;

/**
 * The update's match of a row to its hit: by primary key through an array (sized at a few rows
 * whatever the statistics say), then the fence against the hit. The state is compared with the
 * hit's `running` column, not a literal, so it is a join condition: as a literal it would let the
 * statistics' count of running rows (often ~0 after ANALYZE) drive the plan into a loop over the
 * whole batch per row. The join conditions are re-checked on a row changed since the snapshot.
 */
const hitFenced = `j.id = ANY(ARRAY(SELECT id FROM hits)) AND j.id = h.id AND j.state = h.running
        AND j.claimed_by = h.worker AND j.claim = h.claim`;

/**
 * A nack's outcome for alias `t`: retry while attempts remain and the nack is neither final nor
 * a cancel.
 */
const retries = (t: string, final: string, cancel: string) =>
  `(NOT ${cancel} AND NOT ${final} AND ${t}.attempts < ${t}.max_attempts)`;

/**
 * A nack's changes for alias `t`. With `cancel` it settles `cancelled` whatever attempts remain
 * and whatever `retryAt`, `final` and `deadLetter` say. It always sets last_error, which is what
 * keeps a cancelling nack's error in its attempt's record (see migration 12).
 */
const nackSet = (
  t: string,
  p: {
    now: string;
    error: string;
    retryAt: string;
    final: string;
    deadLetter: string;
    cancel: string;
  },
) => {
  const retry = retries(t, p.final, p.cancel);
  return `
  last_error = ${p.error}::json,
  state = CASE
    WHEN ${p.cancel} THEN 'cancelled'
    WHEN ${retry} THEN
      CASE WHEN ${p.retryAt}::bigint > ${p.now}::bigint THEN 'delayed' ELSE 'ready' END
    WHEN ${p.deadLetter} THEN 'dead' ELSE 'failed' END,
  run_at = CASE
    WHEN ${retry} THEN
      CASE WHEN ${p.retryAt}::bigint > ${p.now}::bigint THEN ${p.retryAt}::bigint ELSE ${p.now}::bigint END
    ELSE ${t}.run_at END,
  finished_at = CASE WHEN ${retry} THEN ${t}.finished_at ELSE ${p.now}::bigint END,
  claimed_by = NULL,
  visible_at = NULL,
  updated_at = ${p.now}::bigint`;
};

/**
 * The attempt records of the rows an ack statement completed from their first claim (CTE
 * `acked`: id, attempts, claim, worker, claimed_at): record 1, `completed`, ended `now`. Migration
 * 14's trigger leaves exactly these rows to the statement; a row claimed before migration 8 (no
 * claimed_at) keeps the trigger's record.
 */
const firstRecords = (s: string, now: string) => `
        INSERT INTO ${s}.job_attempts
          (job_id, seq, attempt, claim, worker, claimed_at, ended_at, outcome)
        SELECT k.id, 1, k.attempts, k.claim, k.worker, k.claimed_at, ${now}::bigint, 'completed'
        FROM acked k WHERE k.claim = 1 AND k.claimed_at IS NOT NULL`;

/** Whether a nack's row `state` (as it left the row) settled it, or sent it back to work. */
const settledBy = (state: string) => `${state} NOT IN ('ready', 'delayed')`;

/**
 * Fenced settles: each is ONE statement, and no row back means the fence no longer held.
 * Those that make work wake its queue in the same statement; those that settle a job tell its
 * id on the settle channel in the same statement (see settle-notice.ts).
 */
export function settleSql(s: string) {
  return {
    /**
     * The ack of a first claim records its attempt here (see firstRecords); migration 8's trigger
     * records the rest. $1 id, $2 worker, $3 claim, $4 now, $5 has result, $6 result,
     * $7 settle channel.
     */
    ack: `
      WITH acked AS (
        UPDATE ${s}.jobs j SET
          state = 'completed',
          result = CASE WHEN $5::bool THEN $6::json ELSE j.result END,
          finished_at = $4::bigint, claimed_by = NULL, visible_at = NULL, updated_at = $4::bigint
        WHERE ${fenced('j', '$1', '$2', '$3')}
        RETURNING j.id, j.attempts, j.claim, $2::text AS worker, j.claimed_at
      ), recorded AS (${firstRecords(s, '$4')})
      SELECT 1 AS landed, ${settleNoticeOf('$7', 'id')} AS told FROM acked`,

    /**
     * $1 id, $2 worker, $3 claim, $4 now, $5 error, $6 retryAt, $7 final, $8 deadLetter,
     * $9 channel, $10 cancel, $11 settle channel.
     */
    nack: `
      WITH moved AS (
        UPDATE ${s}.jobs j SET ${nackSet('j', { now: '$4', error: '$5', retryAt: '$6', final: '$7::bool', deadLetter: '$8::bool', cancel: '$10::bool' })}
        WHERE ${fenced('j', '$1', '$2', '$3')}
        RETURNING j.id, j.queue, j.state
      ), woke AS (SELECT pg_notify($9, queue) FROM moved WHERE NOT ${settledBy('state')})
      SELECT 1 AS landed, (SELECT count(*) FROM woke) AS woke,
        CASE WHEN ${settledBy('state')} THEN ${settleNoticeOf('$11', 'id')} END AS told
      FROM moved`,

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

    /**
     * After a suspend with an events filter landed (run with no eventsSince, so an event that
     * does not pass the filter never makes it due): when a live $3 event published at or after
     * $4, matching $5 and not among $6, is stored, the row — still suspended on $3 under claim
     * $2, not yet due — is due now. A publish after the suspend's lock wakes the row itself; one
     * before it is committed by now and seen here. $1 id, $2 claim, $3 waitFor, $4 eventsSince,
     * $5 eventsMatch or NULL, $6 eventsExclude or NULL, $7 now, $8 channel.
     */
    suspendWake: `
      WITH moved AS (
        UPDATE ${s}.jobs j SET run_at = $7::bigint, updated_at = $7::bigint
        WHERE j.id = $1 AND j.state = 'suspended' AND j.claim = $2 AND j.wait_for = $3::text
          AND j.run_at > $7::bigint
          AND EXISTS (
            SELECT 1 FROM ${s}.events e
            WHERE e.name = $3::text AND e.published_at >= $4::bigint
              AND e.expires_at > $7::bigint AND ${eventCounts('e', '$5', '$6')})
        RETURNING j.queue
      ), woke AS (SELECT pg_notify($8, queue) FROM moved)
      SELECT 1 AS landed, (SELECT count(*) FROM woke) AS woke FROM moved`,

    /** $1 id, $2 worker, $3 claim, $4 now, $5 visibility ms. */
    extend: `
      UPDATE ${s}.jobs j SET visible_at = $4::bigint + $5::bigint, lapsed = false,
          updated_at = $4::bigint
      WHERE ${fenced('j', '$1', '$2', '$3')}
      RETURNING 1 AS landed`,

    /**
     * Many acks in ONE statement. Per job only the FIRST item whose fence holds can land: after
     * it the row is no longer running, exactly as the items applied one by one.
     * $1 ids, $2 workers, $3 claims, $4 has result, $5 results; $6 now, $7 settle channel.
     */
    ackMany: `
      WITH items AS (
        SELECT * FROM unnest($1::uuid[], $2::text[], $3::bigint[], $4::bool[], $5::text[])
          WITH ORDINALITY AS t(id, worker, claim, has_result, result, ord)
      ), hits AS MATERIALIZED (${hits}), acked AS (
        UPDATE ${s}.jobs j SET
          state = 'completed',
          result = CASE WHEN h.has_result THEN h.result::json ELSE j.result END,
          finished_at = $6::bigint, claimed_by = NULL, visible_at = NULL, updated_at = $6::bigint
        FROM hits h WHERE ${hitFenced}
        RETURNING h.ord, j.id, j.attempts, j.claim, h.worker, j.claimed_at
      ), recorded AS (${firstRecords(s, '$6')}), told AS (${settleNotices('$7', 'acked')})
      SELECT ord, (SELECT count(*) FROM told) AS told FROM acked`,

    /**
     * Many nacks in ONE statement, as ackMany; one NOTIFY per queue that got work back.
     * $1 ids, $2 workers, $3 claims, $4 errors, $5 retryAts, $6 finals, $7 deadLetters,
     * $8 cancels; $9 now, $10 channel, $11 settle channel.
     */
    nackMany: `
      WITH items AS (
        SELECT * FROM unnest($1::uuid[], $2::text[], $3::bigint[], $4::text[], $5::bigint[],
          $6::bool[], $7::bool[], $8::bool[])
          WITH ORDINALITY AS t(id, worker, claim, error, retry_at, final, dead_letter, cancel, ord)
      ), hits AS MATERIALIZED (${hits}), moved AS (
        UPDATE ${s}.jobs j SET ${nackSet('j', { now: '$9', error: 'h.error', retryAt: 'h.retry_at', final: 'h.final', deadLetter: 'h.dead_letter', cancel: 'h.cancel' })}
        FROM hits h WHERE ${hitFenced}
        RETURNING h.ord, j.id, j.queue, j.state
      ), woke AS (
        SELECT pg_notify($10, q.queue)
        FROM (SELECT DISTINCT queue FROM moved WHERE NOT ${settledBy('state')}) q
      ), told AS (${settleNotices('$11', `(SELECT * FROM moved WHERE ${settledBy('state')})`)})
      SELECT ord, (SELECT count(*) FROM woke) AS woke, (SELECT count(*) FROM told) AS told
      FROM moved`,
  };
}
