import type { ClaimedJob, Fence } from '../../contract/records.js';
import type { StepRecord } from '../../contract/steps.js';
import type { BerthError } from '../../errors/berth-error.js';
import type { AnyJobDefinition } from '../jobs/job-types.js';
import { type JobLog, makeJobLog } from '../logs/job-log.js';
import type { AttemptLog } from '../logs/log-shipper.js';
import { createStepApi, type RunSuspended, type StepApi } from '../steps/index.js';
import type { ContextSource } from './attempt-context.js';
import { type RuntimeLogger, withFields } from './logger.js';
import { createProgressReporter, type ProgressReporter } from './progress-reporter.js';
import type { AttemptState } from './run-attempt.js';
import type { LeaseClock } from './settle-retry.js';
import type { WorkerCore } from './worker-core.js';

/**
 * What an attempt gives its handler, each piece made on first use so that a handler that reads
 * none costs none: the signal, the step API, the job's logger, `ctx.progress` and `ctx.log`.
 * Also the attempt's abort state, which the handler's end is read against (run-attempt.ts).
 * Attempt (attempt.ts) extends it with the course from start to settle: one object per job.
 */
export abstract class AttemptTools implements ContextSource, AttemptState {
  readonly fence: Fence;
  readonly lease: LeaseClock;
  aborted = false;
  reason: unknown;
  lost: BerthError | undefined;
  slotLost = false;
  suspension: RunSuspended | undefined;
  private controller: AbortController | undefined;
  private stepApi: StepApi | undefined;
  private jobLogger: RuntimeLogger | undefined;
  private stepsRead: Promise<readonly StepRecord[]> | undefined;
  /** Made on the first `ctx.progress`: a job that never reports costs nothing. */
  private reporter: ProgressReporter | undefined;
  private reportProgress: ((value: unknown) => Promise<boolean>) | undefined;
  /** Made on the first `ctx.log` line: a job that logs nothing costs nothing. */
  private jobLog: AttemptLog | undefined;
  private logFn: JobLog | undefined;

  constructor(
    readonly worker: WorkerCore,
    readonly job: ClaimedJob,
    readonly definition: AnyJobDefinition,
  ) {
    this.fence = { jobId: job.id, workerId: worker.workerId, claim: job.claim };
    this.lease = { until: job.visibleAt };
  }

  /** The lease (or the concurrency slot) is gone: a refused write of a tool says so. */
  abstract leaseLost(what: 'lease' | 'slot'): void;

  /** The handler's signal, made on first use (already aborted when the attempt was). */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  /** The step API, made on first use: each write presents this attempt's fence. */
  get step(): StepApi {
    const { settings } = this.worker;
    this.stepApi ??= createStepApi({
      driver: this.worker.driver,
      job: this.job,
      fence: this.fence,
      signal: this.signal,
      onLeaseLost: () => this.leaseLost('lease'),
      steps: () => this.storedSteps(),
      onSuspend: (requested) => {
        this.suspension = requested;
      },
      ...(settings.defaultStepTimeoutMs === undefined
        ? {}
        : { defaultStepTimeoutMs: settings.defaultStepTimeoutMs }),
      ...(settings.eventPollMs === undefined ? {} : { eventPollMs: settings.eventPollMs }),
    });
    return this.stepApi;
  }

  /** The worker's logger with this job's id, name and attempt, made on first use. */
  get logger(): RuntimeLogger {
    const { job } = this;
    this.jobLogger ??= withFields(this.worker.logger, {
      jobId: job.id,
      job: job.name,
      attempt: job.attempts,
    });
    return this.jobLogger;
  }

  /** `ctx.progress`, made on first use: bound, so a handler may destructure it. */
  get progress(): (value: unknown) => Promise<boolean> {
    this.reportProgress ??= (value) => this.report(value);
    return this.reportProgress;
  }

  /** `ctx.log`, made on first read; lines go to the worker's one flusher. */
  get log(): JobLog {
    this.logFn ??= makeJobLog((level, message) => {
      this.jobLog ??= this.worker.logShipper.open(this.fence, () => this.leaseLost('lease'));
      this.jobLog.write(level, message);
    });
    return this.logFn;
  }

  /** The run's stored steps, read at most once per attempt (a failed read is tried again). */
  storedSteps(): Promise<readonly StepRecord[]> {
    this.stepsRead ??= this.worker.driver.steps.list(this.job.runId).catch((error: unknown) => {
      this.stepsRead = undefined;
      throw error;
    });
    return this.stepsRead;
  }

  /** Aborts the handler's signal, when it was made. */
  protected abortSignal(reason: unknown): void {
    this.controller?.abort(reason);
  }

  /**
   * Lands the last progress value and log lines before the settle clears the fence (not when
   * `write` is false: a lost lease would refuse them). Undefined when the handler used neither,
   * so the common settle waits for nothing.
   */
  protected closeTools(write: boolean): Promise<unknown> | undefined {
    const { reporter, jobLog } = this;
    if (reporter === undefined && jobLog === undefined) return undefined;
    return Promise.all([reporter?.close(write), jobLog?.close(write)]);
  }

  /** Throttled, fenced writes of the job's progress (see progress-reporter). */
  private report(value: unknown): Promise<boolean> {
    const { worker, job } = this;
    this.reporter ??= createProgressReporter({
      driver: worker.driver,
      fence: this.fence,
      logger: this.logger,
      onLanded: (landed) => worker.events.emit('progress', { name: job.name, job, value: landed }),
      onRefused: () => this.leaseLost('lease'),
    });
    return this.reporter.report(value);
  }
}
