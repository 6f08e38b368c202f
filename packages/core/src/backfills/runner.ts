import type { BackfillChange, BackfillLedger, BackfillRun } from '../contract/backfills.js';
import { MAX_BACKFILL_ERROR_LENGTH } from '../contract/backfills.js';
import type { Json } from '../contract/records.js';
import { isBerthError } from '../errors/berth-error.js';
import type { JobContext } from '../runtime/jobs/job-types.js';
import { isRetryable, NonRetryableError } from '../runtime/jobs/non-retryable.js';
import { driverOfContext } from '../runtime/worker/attempt-context.js';
import { BackfillPacer } from './pacer.js';
import type {
  BackfillJobPayload,
  BackfillJobResult,
  BackfillOptions,
  BackfillPassResult,
} from './types.js';

/** What the runner needs of a definition, defaults filled. */
export interface ResolvedBackfill<TTx> extends BackfillOptions<TTx> {
  readonly batch: number;
}

type RunnerContext = JobContext<BackfillJobPayload>;

/** A transaction's commit that did not land: thrown to roll the pass back, then answered. */
class PassNotCommitted extends Error {
  constructor(readonly change: BackfillChange | undefined) {
    super('the pass was not committed: the run moved on without it');
  }
}

function checkedResult(result: unknown): { rows: number; next: Json | null } {
  const answer = result as BackfillPassResult | undefined;
  const rows = answer?.rows;
  if (typeof rows !== 'number' || !Number.isSafeInteger(rows) || rows < 0) {
    // The pass's code is wrong, not the moment: another attempt answers the same.
    throw new NonRetryableError(
      `a backfill pass must answer { rows, next } with rows a whole number ≥ 0; it answered ${JSON.stringify(result)}`,
    );
  }
  return { rows, next: answer?.next ?? null };
}

/** One pass from the run's cursor, and its commit (in the transaction, when there is one). */
async function passOnce<TTx>(
  backfill: ResolvedBackfill<TTx>,
  context: RunnerContext,
  ledger: BackfillLedger,
  run: BackfillRun,
): Promise<BackfillChange | undefined> {
  const passOf = async (tx: TTx) =>
    checkedResult(
      await backfill.pass({
        cursor: run.cursor,
        limit: backfill.batch,
        signal: context.signal,
        runId: run.runId,
        tenantId: run.tenantId,
        tx,
        logger: context.logger,
      }),
    );
  const commit = (into: BackfillLedger, result: { rows: number; next: Json | null }) =>
    into.commit(run.runId, { jobId: context.job.id, passes: run.passes, ...result });
  const transaction = backfill.transaction;
  if (transaction === undefined) return commit(ledger, await passOf(undefined as TTx));
  try {
    return await transaction.run(async (tx, inTransaction) => {
      const change = await commit(inTransaction, await passOf(tx));
      if (change?.changed !== true) throw new PassNotCommitted(change);
      return change;
    });
  } catch (error) {
    if (error instanceof PassNotCommitted) return error.change;
    throw error;
  }
}

const describeError = (error: unknown): string =>
  (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(
    0,
    MAX_BACKFILL_ERROR_LENGTH,
  );

/**
 * Keeps the failure with the run: the last attempt's (or one that cannot be retried) fails the
 * run; an earlier one is noted as `lastError` while the job retries. A run handed to another
 * job meanwhile is that job's to report.
 */
async function reportFailure(
  ledger: BackfillLedger,
  context: RunnerContext,
  runId: string,
  error: unknown,
): Promise<void> {
  const current = await ledger.get(runId);
  if (current?.jobId !== context.job.id) return;
  const final = context.attempt >= context.job.maxAttempts || !isRetryable(error);
  await ledger.transition(runId, {
    from: ['running'],
    to: final ? 'failed' : 'running',
    error: describeError(error),
  });
}

/**
 * The runner job's handler: passes from the committed cursor until the collection is done, the
 * run is paused or cancelled, or it was handed to another job. A drain stops it between passes
 * (the job goes back and resumes at the committed cursor); a failing pass retries as the job does.
 */
export async function runBackfill<TTx>(
  backfill: ResolvedBackfill<TTx>,
  context: RunnerContext,
): Promise<BackfillJobResult> {
  const ledger = driverOfContext(context as JobContext<unknown>).backfills;
  const { runId } = context.payload;
  const pacer = new BackfillPacer(backfill.rateLimit);
  let run = await ledger.get(runId);
  try {
    while (run !== undefined && run.status === 'running' && run.jobId === context.job.id) {
      await pacer.wait(context.signal);
      context.signal.throwIfAborted();
      const before = run.rowsDone;
      const change = await passOnce(backfill, context, ledger, run);
      run = change?.run;
      if (change?.changed === true) pacer.count(change.run.rowsDone - before);
    }
  } catch (error) {
    // A drain is no failure: the job goes back and resumes at the committed cursor.
    if (!isBerthError(context.signal.reason, 'WORKER_DRAINING')) {
      await reportFailure(ledger, context, runId, error).catch((reportError: unknown) =>
        context.logger.warn('backfill: the failure could not be kept with the run', {
          runId,
          error: describeError(reportError),
        }),
      );
    }
    throw error;
  }
  return run === undefined
    ? { status: 'gone', passes: 0, rowsDone: 0 }
    : { status: run.status, passes: run.passes, rowsDone: run.rowsDone };
}
