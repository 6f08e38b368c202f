import { registerErrorCode } from './registry.js';

/**
 * Core's error codes. Each is documented once here: when it is thrown, and what fixes it.
 * Codes never change; messages may.
 */
export const CORE_ERROR_CODES = {
  /** Enqueue, claim, list or operator input that no driver may accept; `meta.field` names it. */
  JOB_INVALID: {
    title: 'the request names a field the contract does not accept',
    fix: 'correct the field named in meta.field and send the request again',
  },
  /** A live job already holds the idempotency key (`onConflict: "error"`, or a requeue). */
  JOB_DUPLICATE: {
    title: 'a live job already holds this idempotency key',
    fix: 'use the job in meta.existingId, wait for it to settle, or enqueue with a different idempotencyKey',
  },
  /** A by-id call named an id this driver does not hold (or another tenant holds). */
  JOB_NOT_FOUND: {
    title: 'the queue holds no job with this id',
    fix: 'check the id (berth jobs ls --json, or driver.list({ limit: 50 }), shows what the queue holds) and the tenantId it was asked with (berth jobs show <id> --tenant <tenant>)',
  },
  /** `requeue` of a job that is not failed, dead or cancelled; `meta.state` says what it is. */
  JOB_NOT_REQUEUEABLE: {
    title: 'only failed, dead or cancelled jobs can be requeued',
    fix: 'requeue the job once it has settled failed, dead or cancelled; a live job is already queued',
  },
  /** `cancel` of a job that has already settled; `meta.state` says how. */
  JOB_NOT_CANCELLABLE: {
    title: 'only live jobs (ready, delayed, running, suspended) can be cancelled',
    fix: 'nothing to cancel: the job has settled; requeue it if it should run again',
  },
  /** `promote` of a job that is not waiting on a future runAt; `meta.state` says what it is. */
  JOB_NOT_PROMOTABLE: {
    title: 'only delayed jobs whose run time has not come can be promoted',
    fix: 'promote only a job that berth jobs ls --state delayed (or driver.list({ state: "delayed" })) shows',
  },
  /** `delete` of a job a worker holds (`meta.state` is `running`). */
  JOB_NOT_DELETABLE: {
    title: 'a running job cannot be deleted',
    fix: 'cancel the job first (berth jobs cancel <id>, or driver.cancel(id)), then delete it: berth jobs delete <id>, or driver.delete(id)',
  },
  /** `list` given a cursor no page produced, or a limit outside 1..MAX_JOB_PAGE. */
  JOB_PAGE_INVALID: {
    title: 'a job list page was asked for outside its bounds',
    fix: 'pass next/prev exactly as a previous page answered them, and a limit from 1 to 500',
  },
  /** A fenced write (step put) from a worker whose claim no longer holds. */
  LEASE_LOST: {
    title: 'the worker no longer holds the job it wrote for',
    fix: 'nothing to do for this attempt: another worker owns the job now; raise visibilityTimeoutMs if leases lapse under load',
  },
  /** Written by a claim into `lastError.code` of a job whose final attempt's lease lapsed. */
  LEASE_LAPSED: {
    title: 'the lease lapsed on the final attempt',
    fix: 'find why the worker stopped renewing (crash, event-loop stall), then requeue the job: berth jobs retry <id>, or driver.requeue(id)',
  },
  /** The backend failed or answered what the contract cannot explain; its error is the `cause`. */
  DRIVER_UNAVAILABLE: {
    title: 'the queue backend could not answer',
    fix: 'check the backend is running and reachable at the address the driver was given (detail and cause say what failed); the driver recovers by itself once it answers',
  },
  /** The backend is reachable but lacks the driver's schema, or holds an older one. */
  DRIVER_NOT_MIGRATED: {
    title: "the backend does not hold this driver's schema yet",
    fix: 'migrate once, at deploy or boot, before starting workers or schedulers: berth migrate --url <url>, or await driver.migrate()',
  },
  /** A call on a driver after (or racing) its `close()`. */
  DRIVER_CLOSED: {
    title: 'the driver was closed',
    fix: 'stop workers, schedulers and retention before await driver.close(); a closed driver never reopens, so create a new one to go on',
  },
  /** An attempt ran past its job's `timeout`. */
  JOB_TIMEOUT: {
    title: 'the attempt ran past its timeout',
    fix: 'raise the job timeout or make the handler honour its AbortSignal sooner',
  },
  /** An attempt was aborted: the job was cancelled or its lease was lost. */
  JOB_ABORTED: {
    title: 'the attempt was aborted',
    fix: 'nothing to do: the job was cancelled or another worker took it over',
  },
  /** A draining worker handed a running job back before it finished. */
  WORKER_DRAINING: {
    title: 'the worker stopped before the attempt finished',
    fix: 'nothing to do: another worker takes the job at once; raise stop({ graceMs }) to let jobs finish',
  },
  /** A caller waiting for a job's result (`handle.result()`, `enqueueAndWait`) saw it settle without one. */
  JOB_FAILED: {
    title: 'the job settled failed, dead or cancelled',
    fix: 'read why in meta.error (berth jobs show <id> shows the job), fix the cause, then requeue it: berth jobs retry <id>, or driver.requeue(id)',
  },
  /** A caller waiting for a job's result gave up: the job had not settled within `timeoutMs`. */
  JOB_WAIT_TIMEOUT: {
    title: 'the job did not settle within the wait',
    fix: 'wait longer (result({ timeoutMs })), or check the job is being worked: berth jobs show <id>',
  },
  /** A step was misused: a name used twice in one run, a requeue fromStep that names no step. */
  STEP_INVALID: {
    title: 'a step was used outside its rules',
    fix: 'give every step in a run its own name, and requeue fromStep only a step the run wrote',
  },
  /** `backfills.start` while `concurrency` runs of the name (and tenant) run or are paused. */
  BACKFILL_RUNNING: {
    title: 'this backfill already has as many runs as it allows',
    fix: 'wait for the run in meta.active to end, or pause or cancel it first (berth backfills cancel <runId>); give the backfill a higher concurrency to run several at once',
  },
  /** A backfill by-id call named a run the ledger does not hold (or another tenant holds). */
  BACKFILL_NOT_FOUND: {
    title: 'the ledger holds no backfill run with this id',
    fix: 'check the run id (berth backfills ls shows the runs the ledger keeps) and the tenantId it was asked with',
  },
  /** A schedule by-name call named a schedule the driver does not store (for that tenant). */
  SCHEDULE_NOT_FOUND: {
    title: 'no schedule of this name is stored',
    fix: 'check the name (berth schedules ls lists the stored schedules) and the tenantId it was asked with; schedules given to createScheduler in code are not stored and cannot be paused this way',
  },
  /** Pause, resume or cancel of a run that ended (`meta.status` says how). */
  BACKFILL_NOT_ACTIVE: {
    title: 'the backfill run has ended: completed, failed and cancelled runs do not move',
    fix: 'start a new run; to go on from where it stopped, start it at the run’s cursor (backfills.start(backfill, { cursor }))',
  },
  /** `outbox.stage` (or `publish`) was called outside a transaction: nothing was staged. */
  OUTBOX_NO_TX: {
    title: 'outbox rows are staged only inside a transaction',
    fix: 'stage on a client inside BEGIN … COMMIT (the transaction whose data the job belongs with); outside one, enqueue with client.enqueue instead',
  },
  /** `verifyWebhook` refused a delivery; `meta.reason` says which check failed. */
  WEBHOOK_INVALID: {
    title: 'the webhook delivery is not signed by a secret of this endpoint',
    fix: 'answer the sender 400 and drop the delivery; if real deliveries fail, check the endpoint secret (every secret during a rotation), that the raw body is verified before any parsing, and the receiver clock (toleranceSec)',
  },
  /** An option given to a driver, worker or scheduler constructor is out of range. */
  CONFIG_INVALID: {
    title: 'an option is out of range',
    fix: 'correct the option named in meta.option; meta.reason says what it takes',
  },
} as const satisfies Record<string, { title: string; fix: string }>;

export type CoreErrorCode = keyof typeof CORE_ERROR_CODES;

// One unconditional registration at import: a second package claiming a core code throws here.
// The cast also proves every core code has its meta shape in BerthErrorMetas.
for (const [code, entry] of Object.entries(CORE_ERROR_CODES)) {
  registerErrorCode({ code: code as CoreErrorCode, ...entry });
}
