import type { ClaimedJob } from '../../contract/records.js';
import type { RuntimeLogger } from '../worker/logger.js';
import type { JobContractOptions, JobImplementation } from './job-types.js';

/**
 * How a batch job's jobs are gathered: a worker holds each claimed job of the name until `size`
 * of them wait, or `waitMs` passed since the first, then runs the handler once with all of them.
 * Each job holds one of the worker's `concurrency` slots while it waits and runs, so a worker
 * with fewer slots than `size` runs batches of at most its slots.
 */
export interface BatchOptions {
  /** Most jobs one run of the handler gets: an integer from 1 to MAX_CLAIM_BATCH (1 000). */
  readonly size: number;
  /** Longest a job waits for its batch to fill, ms: an integer from 0 to MAX_BATCH_WAIT_MS. */
  readonly waitMs: number;
}

/** One job of a batch, as the handler gets it. */
export interface BatchItem<TPayload> {
  readonly payload: TPayload;
  readonly job: ClaimedJob;
  /** This job's attempt number: the jobs of one batch may be on different attempts. */
  readonly attempt: number;
}

/** What a batch handler gets beside its items. */
export interface BatchContext {
  /** Aborted once every job of the batch was aborted (its lease lost, a drain, a timeout). */
  readonly signal: AbortSignal;
  readonly logger: RuntimeLogger;
}

/**
 * A batch handler's answer: one entry per item, in the items' order. A value completes that job
 * with it as its result; an `Error` fails that job alone (retried as its `retry` says, as a throw
 * from a single job's handler would be). A throw fails every job of the batch.
 */
export type BatchAnswer<TResult> = readonly (TResult | Error)[];

/** A batch job's handler: `run` takes the batch's items and answers one entry per item. */
export interface BatchImplementation<TPayload, TResult>
  extends Pick<JobImplementation<TPayload, TResult>, 'onSettled'> {
  readonly batch: BatchOptions;
  run(
    items: readonly BatchItem<TPayload>[],
    context: BatchContext,
  ): BatchAnswer<TResult> | Promise<BatchAnswer<TResult>>;
}

/** What `defineJob` takes for a batch job: the contract's options and the batch handler. */
export interface BatchJobOptions<TInput, TPayload, TResult>
  extends JobContractOptions<TInput, TPayload>,
    BatchImplementation<TPayload, TResult> {}
