/**
 * Pausing a queue: workers stop claiming from it, fleet-wide, until it is resumed. Enqueues
 * still land (a delayed job still becomes due), jobs already running finish and settle as
 * usual; only new claims of the queue stop. Kit group: `pause`.
 *
 * Tenancy: a pause holds the whole queue, every tenant's jobs alike, so it is an operator call
 * with no tenant scope (as `stats` is). A call that names a `tenantId` is refused with
 * JOB_INVALID (`meta.field = "tenantId"`) before anything is sent: a tenant never pauses, resumes
 * or reads the pause of a queue other tenants share.
 */

/** A queue's pause as every pause call answers it. */
export interface QueuePause {
  readonly queue: string;
  readonly paused: boolean;
  /**
   * When the pause that holds began (the driver's clock, epoch ms); only while `paused`. A
   * second pause keeps the first one's instant, so a retried pause answers alike.
   */
  readonly pausedAt?: number;
}

/** Options of every pause call: only `tenantId`, which is refused (see above). */
export interface PauseOptions {
  readonly tenantId?: string;
}

/**
 * The app-facing calls (`driver.pauses`). Core screens them: the queue is a name as enqueue's
 * `queue` (JOB_INVALID `queue`), options an object without `tenantId`.
 */
export interface PauseStore {
  /** Pauses `queue` (any name: a queue need hold no row to be paused); answers its pause. */
  pause(queue: string, options?: PauseOptions): Promise<QueuePause>;
  /** Resumes `queue` and wakes the workers that claim from it; answers `{ queue, paused: false }`. */
  resume(queue: string, options?: PauseOptions): Promise<QueuePause>;
  /** Every paused queue (`paused: true`), sorted by queue name. */
  list(options?: PauseOptions): Promise<readonly QueuePause[]>;
}

/**
 * What a driver author implements (`DriverBackend.pauses`); inputs are screened queue names.
 * - pause: ONE atomic change stores the queue as paused at `now` unless it already is, and
 *   answers `{ queue, paused: true, pausedAt }` with the stored instant. Idempotent: pausing a
 *   paused queue changes nothing and answers the same, so a caller that lost the answer and
 *   retries (or a sibling racing it) gets the same `pausedAt`.
 * - resume: ONE atomic change removes the pause (nothing when none holds) and answers
 *   `{ queue, paused: false }`; then wakes the queue exactly as an enqueue does (`subscribe`'s
 *   `onWork(queue)` on every instance), so idle workers claim at once instead of at a poll.
 * - list: every paused queue, sorted by name (code-unit order), each with its `pausedAt`.
 * - claim (`DriverBackend.claim`): reads the pauses INSIDE its one atomic change (pg: the claim
 *   statement; redis: the claim script; NATS: after the claim's full sync, before its writes;
 *   memory: the synchronous change) and takes nothing from a paused queue: no row of it is
 *   claimed or buried, its lapsed leases wait. So every claim that starts after a pause answered,
 *   on any instance of the deployment, sees it. Pause state is one entry per paused queue,
 *   read per claimed queue: a claim's cost does not grow with it or with the backlog.
 * Durability: a pause is stored like a job row (see each driver README's durability table).
 */
export interface PauseBackend {
  pause(queue: string): Promise<QueuePause>;
  resume(queue: string): Promise<QueuePause>;
  list(): Promise<readonly QueuePause[]>;
}
