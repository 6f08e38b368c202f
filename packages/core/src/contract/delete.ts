import type { ByIdOptions, JobRecord } from './records.js';
import type { JobState } from './states.js';

/**
 * Deleting one job: the row and everything it owns go for good (Bull Board's "Remove", River's
 * `JobDelete`). Kit group `delete`.
 *
 * A job a worker holds is never deleted under it: like River (`ErrJobRunning`) and BullMQ (a
 * locked job cannot be removed), a `running` row — its lease current or lapsed, since a worker
 * may still be running it — is refused JOB_NOT_DELETABLE (`meta.state: "running"`); cancel it
 * first (`driver.cancel(id)`, `berth jobs cancel <id>`), then delete the cancelled row.
 */

/** The stored states `delete` refuses: a worker may hold the job. */
export const UNDELETABLE_STATES: ReadonlySet<JobState> = new Set<JobState>(['running']);

/** The app-facing call, screened by core (the id a uuid, the tenant a name). */
export interface DeleteJobs {
  /**
   * Removes job `id` and answers the record as it was just before (its effective state).
   * JOB_NOT_FOUND for an id this tenant cannot see — also for a delete retried after its answer
   * was lost, since the first one landed; JOB_NOT_DELETABLE (`meta.state`) for a running job.
   */
  delete(id: string, options?: ByIdOptions): Promise<JobRecord>;
}

/** What a driver author implements. */
export interface DeleteBackend {
  /**
   * ONE atomic change (a statement, a script, a conditional write of the record's key) that
   * reads the row and, when it may go, removes it with everything it owns:
   * - with `tenantId`, a row of another tenant (or of none) is as an id nobody queued:
   *   JOB_NOT_FOUND, and so is an id already deleted (a retried delete whose first answer was
   *   lost answers JOB_NOT_FOUND on every driver: the first one landed);
   * - a row whose STORED state is `running` is refused JOB_NOT_DELETABLE with
   *   `meta.state: "running"` and changes nothing; every other state (ready, delayed,
   *   suspended, completed, failed, dead, cancelled) is deleted;
   * - the removal takes the row, its steps (the whole run), its list and index entries (it is
   *   never listed, counted in stats or claimed again), its registration as a waiter for an
   *   event, and its hold on its idempotency key: a new enqueue with the same
   *   `(name, tenantId, idempotencyKey)` lands a NEW job at once;
   * - the answer is the record as it stood before the removal, with its effective state.
   * A delete racing a claim of the same row: exactly one wins. Either the claim answers the job
   * and the delete JOB_NOT_DELETABLE, or the delete answers the record and the claim never
   * hands the job out. The work is bounded by one row and its steps, never by the backlog.
   */
  delete(id: string, options: ByIdOptions): Promise<JobRecord>;
}
