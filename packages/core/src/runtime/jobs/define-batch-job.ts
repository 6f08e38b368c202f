import { MAX_CLAIM_BATCH } from '../../contract/limits.js';
import type { Json } from '../../contract/records.js';
import { describeReceived } from '../../errors/received.js';
import { configInvalid } from '../../errors/refusals.js';
import { configObject, configuring } from '../../internal/config-screen.js';
import { optionExample } from '../../internal/option-example.js';
import type { RequireJson } from '../../json-shape.js';
import { batchRun, MAX_BATCH_WAIT_MS } from './batch-run.js';
import type { BatchImplementation, BatchJobOptions, BatchOptions } from './batch-types.js';
import { declareJob, implementJob } from './define-job.js';
import type {
  JobContract,
  JobContractOptions,
  JobDefinition,
  JobImplementation,
  JobResult,
} from './job-types.js';

const EXAMPLE =
  "defineBatchJob({ name: 'index-docs', batch: { size: 100, waitMs: 50 }, run: async (items) => items.map(() => null) })";

function checkWhole(job: string, path: string, value: unknown, max: number, min: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw configInvalid({
      option: `job ${job}: ${path}`,
      reason: `is ${describeReceived(value)}; it must be an integer from ${min} to ${max}`,
      allowed: `an integer from ${min} to ${max}`,
      example: optionExample('defineBatchJob', path, path === 'batch.size' ? '100' : '50'),
    });
  }
  return value;
}

/** `size` from 1 to MAX_CLAIM_BATCH, `waitMs` from 0 to MAX_BATCH_WAIT_MS. */
function checkBatch(job: string, given: unknown): BatchOptions {
  const example = optionExample('defineBatchJob', 'batch', '{ size: 100, waitMs: 50 }');
  const batch = configObject(`job ${job}: batch`, given, example);
  return Object.freeze({
    size: checkWhole(job, 'batch.size', batch.size, MAX_CLAIM_BATCH, 1),
    waitMs: checkWhole(job, 'batch.waitMs', batch.waitMs, MAX_BATCH_WAIT_MS, 0),
  });
}

/**
 * A batch job from a contract (`declareJob`) and its batch handler: each claimed job waits on
 * its worker until `batch.size` jobs of the name wait or `batch.waitMs` passed, then `run` gets
 * them all at once and answers one entry per item (a result, or an `Error` that fails that job
 * alone). Every job keeps its own lease, attempts, retries, result and events.
 */
export function implementBatchJob<TInput, TPayload, TResult, TName extends string = string>(
  contract: JobContract<TInput, TPayload, TResult, TName>,
  implementation: BatchImplementation<TPayload, NoInfer<TResult>>,
): JobDefinition<TInput, TPayload, TResult, TName> {
  const example = 'implementBatchJob(contract, { batch: { size: 100, waitMs: 50 }, run })';
  const { batch, run, onSettled } = configuring('implementation', example, () =>
    configObject('implementation', implementation, example),
  );
  const name = typeof contract?.name === 'string' ? contract.name : '(unnamed)';
  const checked = checkBatch(name, batch);
  if (typeof run !== 'function') {
    throw configInvalid({
      option: `job ${name}: run`,
      reason: 'must be the function that runs a batch of jobs',
      example: EXAMPLE,
    });
  }
  const perJob: JobImplementation<TPayload, TResult> = {
    run: batchRun(name, {
      batch: checked,
      run: run as BatchImplementation<TPayload, TResult>['run'],
    }),
    ...(onSettled === undefined
      ? {}
      : { onSettled: onSettled as NonNullable<JobImplementation<TPayload, TResult>['onSettled']> }),
  };
  return Object.freeze({ ...implementJob(contract, perJob), batch: checked });
}

/** What `defineBatchJob<TPayload>()` answers: `defineBatchJob` with the payload fixed and the result inferred. */
export type DefineBatchJobWithPayload<TPayload> = <
  TResult = JobResult,
  const TName extends string = string,
>(
  options: BatchJobOptions<TPayload, TPayload, TResult> & { readonly name: TName } & RequireJson<
      TPayload,
      'payload'
    > &
    RequireJson<TResult, 'result'>,
) => JobDefinition<TPayload, TPayload, TResult, TName>;

/**
 * Defines a batch job: its contract and its batch handler at once (see `implementBatchJob`).
 * The payload type comes from the schema, or from `defineBatchJob<TPayload>()({ ... })`, which
 * still infers the result type from what `run` answers per item. Give the worker at least
 * `batch.size` of `concurrency`: each waiting job holds a slot, so a worker with fewer slots runs
 * smaller batches.
 */
export function defineBatchJob<TPayload>(): DefineBatchJobWithPayload<TPayload>;
export function defineBatchJob<
  TInput = Json,
  TPayload = TInput,
  TResult = JobResult,
  const TName extends string = string,
>(
  options: BatchJobOptions<TInput, TPayload, TResult> & { readonly name: TName } & RequireJson<
      TPayload,
      'payload'
    > &
    RequireJson<TResult, 'result'>,
): JobDefinition<TInput, TPayload, TResult, TName>;
export function defineBatchJob<TInput = Json, TPayload = TInput, TResult = JobResult>(
  ...given: [] | [BatchJobOptions<TInput, TPayload, TResult>]
): JobDefinition<TInput, TPayload, TResult> | DefineBatchJobWithPayload<TPayload> {
  if (given.length === 0) {
    return ((options: BatchJobOptions<TPayload, TPayload, unknown>) =>
      defineBatchJobOf(options)) as unknown as DefineBatchJobWithPayload<TPayload>;
  }
  return defineBatchJobOf(given[0]);
}

function defineBatchJobOf<TInput, TPayload, TResult>(
  options: BatchJobOptions<TInput, TPayload, TResult>,
): JobDefinition<TInput, TPayload, TResult> {
  return configuring('options', EXAMPLE, () => {
    configObject('options', options, EXAMPLE);
    const { batch, run, onSettled, ...contract }: BatchJobOptions<TInput, TPayload, TResult> =
      options;
    const declared = declareJob<TPayload, TResult, TInput>(
      contract as JobContractOptions<TInput, TPayload> &
        RequireJson<TPayload, 'payload'> &
        RequireJson<TResult, 'result'>,
    );
    return implementBatchJob(
      declared,
      onSettled === undefined ? { batch, run } : { batch, run, onSettled },
    );
  });
}
