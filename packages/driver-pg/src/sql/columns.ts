/**
 * The job columns every statement answers, JSON as text so that SQL NULL (absent) and JSON
 * `null` stay apart, and in the shape `rows.ts` reads. `t` is the table alias.
 */
export const jobColumns = (t: string): string =>
  [
    `${t}.seq`,
    `${t}.id`,
    `${t}.run_id`,
    `${t}.name`,
    `${t}.queue`,
    `${t}.payload::text AS payload`,
    `${t}.state`,
    `${t}.priority`,
    `${t}.attempts`,
    `${t}.max_attempts`,
    `${t}.run_at`,
    `${t}.created_at`,
    `${t}.updated_at`,
    `${t}.finished_at`,
    `${t}.claimed_by`,
    `${t}.claim`,
    `${t}.visible_at`,
    `${t}.last_error::text AS last_error`,
    `${t}.result::text AS result`,
    `${t}.progress::text AS progress`,
    `${t}.idempotency_key`,
    `${t}.concurrency_key`,
    `${t}.tenant_id`,
    `${t}.traceparent`,
    `${t}.enqueued_by`,
    `${t}.parent_id`,
    `${t}.wait_for`,
  ].join(', ');

/** The job column names alone, for re-selecting from a CTE that answered `jobColumns`. */
export const JOB_COLUMN_NAMES =
  'seq, id, run_id, name, queue, payload, state, priority, attempts, max_attempts, run_at, ' +
  'created_at, updated_at, finished_at, claimed_by, claim, visible_at, last_error, result, ' +
  'progress, idempotency_key, concurrency_key, tenant_id, traceparent, enqueued_by, parent_id, ' +
  'wait_for';

export const LIVE = `('ready', 'delayed', 'running', 'suspended')`;
export const REQUEUEABLE = `('failed', 'dead', 'cancelled')`;

/** The effective state of alias `t` at instant `now` (a parameter reference such as `$2`). */
export const effectiveStateSql = (t: string, now: string): string =>
  `CASE WHEN ${t}.state IN ('delayed', 'suspended') AND ${t}.run_at <= ${now} THEN 'ready' ELSE ${t}.state END`;
