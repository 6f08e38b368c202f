import type { BackfillLedger, BackfillRun } from '../contract/backfills.js';
import type { Json } from '../contract/records.js';
import type { JobDefinition, RetryOptions } from '../runtime/jobs/job-types.js';
import type { RuntimeLogger } from '../runtime/worker/logger.js';

/** What one pass is given: where to start, how many rows to take, and when to stop. */
export interface BackfillPassContext<TTx> {
  /** Where this pass starts: the previous pass's `next`, or the start's cursor (null: the beginning). */
  readonly cursor: Json | null;
  /** How many rows the pass should take: the backfill's `batch`. */
  readonly limit: number;
  /** Aborts when the worker drains or the runner job is cancelled: stop and throw. */
  readonly signal: AbortSignal;
  readonly runId: string;
  /** The run's tenant, when it was started for one. */
  readonly tenantId: string | undefined;
  /** The transaction the pass's writes and the cursor's advance share (see `transaction`). */
  readonly tx: TTx;
  /** The worker's logger, with the runner job's fields. */
  readonly logger: RuntimeLogger;
}

/** What a pass answers: rows it did, and where the next pass starts (null or absent: done). */
export interface BackfillPassResult {
  readonly rows: number;
  readonly next?: Json | null;
}

/**
 * Runs a pass and its commit in ONE transaction of the app's database, so the pass's writes and
 * the cursor's advance land together or not at all: a pass killed mid-way leaves no trace, and
 * none is ever done twice. `@berth/driver-pg`'s `pgBackfillTransaction` is one.
 */
export interface BackfillTransaction<TTx> {
  /** COMMITs when `work` resolves, ROLLBACKs (and rethrows) when it throws. */
  run<T>(work: (tx: TTx, ledger: BackfillLedger) => Promise<T>): Promise<T>;
}

/** A pace: at most `rows` rows per `intervalMs`, over the whole run. */
export interface BackfillRateLimit {
  readonly rows: number;
  readonly intervalMs: number;
}

export interface BackfillOptions<TTx = undefined> {
  /** Unique per app; the runner job is named `backfill:<name>`. */
  readonly name: string;
  /** One pass: take up to `limit` rows after `cursor`, do them, answer `{ rows, next }`. */
  readonly pass: (context: BackfillPassContext<TTx>) => Promise<BackfillPassResult>;
  /** Rows per pass (the pass's `limit`). Default 100. */
  readonly batch?: number;
  /** Pace the run: the runner waits between passes to stay under it. */
  readonly rateLimit?: BackfillRateLimit;
  /** Runs of this backfill (per tenant) that may be running or paused at once. Default 1. */
  readonly concurrency?: number;
  /** The queue of the runner job. Default `default`. */
  readonly queue?: string;
  /** Retries of a failing pass (the runner job's attempts). The last failure fails the run. */
  readonly retry?: RetryOptions;
  /** Each pass and its commit in one transaction (see {@link BackfillTransaction}). */
  readonly transaction?: BackfillTransaction<TTx>;
}

/** The runner job's payload: the run it drives. */
export interface BackfillJobPayload {
  readonly runId: string;
}

/** What a runner job answers when it stops: where the run stood. */
export interface BackfillJobResult {
  readonly status: BackfillRun['status'] | 'gone';
  readonly passes: number;
  readonly rowsDone: number;
}

/** A backfill: a job definition (give it to `createWorker`'s `jobs`) that drives its runs. */
export interface BackfillDefinition
  extends JobDefinition<BackfillJobPayload, BackfillJobPayload, BackfillJobResult> {
  readonly backfill: {
    readonly name: string;
    readonly concurrency: number;
  };
}
