import type { Driver } from '../../contract/driver.js';
import type { ClaimedJob } from '../../contract/records.js';
import type { JsonShaped } from '../../json-shape.js';
import type { JobContext, ProgressValue } from '../jobs/job-types.js';
import type { JobLog } from '../logs/job-log.js';
import type { StepApi } from '../steps/index.js';
import type { BatchCollectors } from './batch-collector.js';
import type { RuntimeLogger } from './logger.js';

/** What the handler context reads from its attempt: each made only when first asked for. */
export interface ContextSource {
  readonly job: ClaimedJob;
  readonly signal: AbortSignal;
  readonly step: StepApi;
  readonly logger: RuntimeLogger;
  /** `ctx.progress`, one function per attempt (a handler may destructure it). */
  readonly progress: (value: unknown) => Promise<boolean>;
  /** `ctx.log`, one function per attempt. */
  readonly log: JobLog;
  /**
   * The worker's driver (core's own job kinds, backfill runners, reach their stores through it)
   * and its batch collectors (a batch job's attempts gather there).
   */
  readonly worker: { readonly driver: Driver; readonly batches: BatchCollectors };
}

/**
 * The handler's context. `signal`, `step` and `logger` are getters on the class: a handler that
 * never reads them costs no AbortController, no step API and no per-job logger. A class, not an
 * object literal with getters, which V8 builds ~30× slower. A new member is one more getter.
 */
export class HandlerContext implements JobContext<unknown> {
  readonly payload: unknown;
  readonly job: ClaimedJob;
  readonly attempt: number;
  readonly #source: ContextSource;

  constructor(source: ContextSource) {
    const { job } = source;
    this.#source = source;
    this.payload = job.payload;
    this.job = job;
    this.attempt = job.attempts;
  }

  get signal(): AbortSignal {
    return this.#source.signal;
  }

  get step(): StepApi {
    return this.#source.step;
  }

  get logger(): RuntimeLogger {
    return this.#source.logger;
  }

  get progress(): <T extends JsonShaped<T> & ProgressValue>(value: T) => Promise<boolean> {
    return this.#source.progress;
  }

  get log(): JobLog {
    return this.#source.log;
  }

  /** Read by {@link driverOfContext}; not part of JobContext. */
  get driver(): Driver {
    return this.#source.worker.driver;
  }

  /** Read by {@link batchesOfContext}; not part of JobContext. */
  get batches(): BatchCollectors {
    return this.#source.worker.batches;
  }
}

/** `context` as the worker made it; `caller` names the function refusing any other. */
function workerContext(context: JobContext<unknown>, caller: string): HandlerContext {
  if (!(context instanceof HandlerContext)) {
    throw new TypeError(`${caller} takes the context a worker gave the handler`);
  }
  return context;
}

/**
 * The driver of the worker running `context`, for core's own job kinds (a backfill runner keeps
 * its ledger there). Not on {@link JobContext}: a handler's writes go through its fenced calls.
 */
export function driverOfContext(context: JobContext<unknown>): Driver {
  return workerContext(context, 'driverOfContext').driver;
}

/** The batch collectors of the worker running `context`: where a batch job's attempt waits. */
export function batchesOfContext(context: JobContext<unknown>): BatchCollectors {
  return workerContext(context, 'batchesOfContext').batches;
}
