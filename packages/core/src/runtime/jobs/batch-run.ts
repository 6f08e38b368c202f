import { batchesOfContext } from '../worker/attempt-context.js';
import type { BatchHandler } from '../worker/batch-collector.js';
import type { BatchImplementation } from './batch-types.js';
import type { JobContext } from './job-types.js';

/** The longest a batch job's attempt waits for its batch to fill: a minute. */
export const MAX_BATCH_WAIT_MS = 60_000;

/**
 * The per-job `run` of a batch job: the attempt joins its worker's collector for this job and
 * is answered its own entry of the batch handler's answer (an `Error` entry fails it). `batch`
 * is the checked, frozen options (`checkBatch`).
 */
export function batchRun<TPayload, TResult>(
  name: string,
  implementation: Pick<BatchImplementation<TPayload, TResult>, 'batch' | 'run'>,
): (context: JobContext<TPayload>) => Promise<TResult> {
  const handler = { name, batch: implementation.batch, run: implementation.run } as BatchHandler;
  return (context) =>
    batchesOfContext(context as JobContext<unknown>).join(handler, {
      payload: context.payload,
      job: context.job,
      attempt: context.attempt,
      signal: context.signal,
    }) as Promise<TResult>;
}
