import type { ClaimedJob, Fence, Json } from '../../contract/records.js';
import type { StepRecord } from '../../contract/steps.js';
import type { BerthError } from '../../errors/berth-error.js';
import { isGenerationId } from '../client/supersede.js';
import type { AnyJobDefinition } from '../jobs/job-types.js';
import { type JobLog, makeJobLog } from '../logs/job-log.js';
import type { AttemptLog } from '../logs/log-shipper.js';
import { type AttemptSpan, attemptSpanNow } from '../otel/attempt-span.js';
import { announceJobSettled } from '../settle-hub.js';
import { createStepApi, type RunSuspended, type StepApi } from '../steps/index.js';
import { timeoutsFor } from '../timers.js';
import { type Admitted, nothingHeld } from './admission.js';
import { type AdmittingAttempt, admitAttempt } from './attempt-admission.js';
import { HandlerContext } from './attempt-context.js';
import { attemptAborted, attemptTimedOut, slotTaken } from './attempt-errors.js';
import type { Leased } from './lease-keeper.js';
import { errorFields, type RuntimeLogger, withFields } from './logger.js';
import { type ProcessDeps, releaseAfter, releaseNow } from './process-job.js';
import { createProgressReporter, type ProgressReporter } from './progress-reporter.js';
import {
  type AttemptEnd,
  type AttemptState,
  endOfError,
  endOfValue,
  spanOutcome,
} from './run-attempt.js';
import { settleAttempt } from './settle-attempt.js';
import type { SettleWaiter } from './settle-batcher.js';
import type { LeaseClock } from './settle-retry.js';

/**
 * One claimed job from claim to settle: its lease is kept from the claim (also while it waits
 * in the prefetch buffer), it takes its fleet slots when it has limits (or bounces when its key
 * is busy), runs its handler, frees its worker slot as the handler ends, and lands its outcome
 * behind that (an ack in the worker's next batch). An abort (lost lease, timeout, drain) ends
 * the attempt at once: a handler that ignores its signal is left behind, and the fence keeps
 * anything it writes from landing.
 *
 * The common job (no limits, a handler that reads neither `signal` nor `step`) costs this
 * object, its fence, the handler's context and promise, and its share of one ack batch.
 */
export class Attempt implements Leased, SettleWaiter, AttemptState, AdmittingAttempt {
  readonly fence: Fence;
  readonly lease: LeaseClock;
  aborted = false;
  reason: unknown;
  lost: BerthError | undefined;
  slotLost = false;
  suspension: RunSuspended | undefined;
  /** The handler was called. */
  private started = false;
  private ended = false;
  private handlerDone = false;
  /** Settles once the handler has answered or thrown. */
  private handlerSettled: Promise<void> | undefined;
  private controller: AbortController | undefined;
  private stepApi: StepApi | undefined;
  private jobLogger: RuntimeLogger | undefined;
  private stepsRead: Promise<readonly StepRecord[]> | undefined;
  private admission: Admitted = nothingHeld;
  private span: AttemptSpan | undefined;
  private cancelTimeout: (() => void) | undefined;
  private result: Json | undefined;
  /** Set while the attempt waits here for its key's slot: a lost lease takes it out. */
  private onLost: (() => void) | undefined;
  /** Made on the first `ctx.progress`: a job that never reports costs nothing. */
  private reporter: ProgressReporter | undefined;
  private reportProgress: ((value: unknown) => Promise<boolean>) | undefined;
  /** Made on the first `ctx.log` line: a job that logs nothing costs nothing. */
  private jobLog: AttemptLog | undefined;
  private logFn: JobLog | undefined;

  constructor(
    readonly deps: ProcessDeps,
    readonly job: ClaimedJob,
    readonly definition: AnyJobDefinition,
  ) {
    this.fence = { jobId: job.id, workerId: deps.workerId, claim: job.claim };
    this.lease = { until: job.visibleAt };
  }

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
    const { deps } = this;
    this.stepApi ??= createStepApi({
      driver: deps.driver,
      job: this.job,
      fence: this.fence,
      signal: this.signal,
      onLeaseLost: () => this.leaseLost('lease'),
      steps: () => this.storedSteps(),
      onSuspend: (requested) => {
        this.suspension = requested;
      },
      ...(deps.defaultStepTimeoutMs === undefined
        ? {}
        : { defaultStepTimeoutMs: deps.defaultStepTimeoutMs }),
      ...(deps.eventPollMs === undefined ? {} : { eventPollMs: deps.eventPollMs }),
    });
    return this.stepApi;
  }

  /** The worker's logger with this job's id, name and attempt, made on first use. */
  get logger(): RuntimeLogger {
    const { job } = this;
    this.jobLogger ??= withFields(this.deps.logger, {
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
      this.jobLog ??= this.deps.logShipper.open(this.fence, () => this.leaseLost('lease'));
      this.jobLog.write(level, message);
    });
    return this.logFn;
  }

  /** Throttled, fenced writes of the job's progress (see progress-reporter). */
  private report(value: unknown): Promise<boolean> {
    const { deps, job } = this;
    this.reporter ??= createProgressReporter({
      driver: deps.driver,
      fence: this.fence,
      logger: this.logger,
      onLanded: (landed) => deps.events.emit('progress', { name: job.name, job, value: landed }),
      onRefused: () => this.leaseLost('lease'),
    });
    return this.reporter.report(value);
  }

  /** The run's stored steps, read at most once per attempt (a failed read is tried again). */
  storedSteps(): Promise<readonly StepRecord[]> {
    this.stepsRead ??= this.deps.driver.steps.list(this.job.runId).catch((error: unknown) => {
      this.stepsRead = undefined;
      throw error;
    });
    return this.stepsRead;
  }

  /** Starts the attempt: its admission when the job has limits, else its handler at once. */
  start(): void {
    const { definition, job } = this;
    // A generation id (debounce, whenBusy replace) is admitted too: a newer job may supersede it.
    if (
      definition.concurrency === undefined &&
      definition.rateLimit === undefined &&
      !isGenerationId(job.id)
    ) {
      this.run();
    } else {
      void this.admitThenRun().catch((error: unknown) => {
        this.unexpected(error);
        this.finish({ kind: 'failed', error });
      });
    }
  }

  /**
   * Aborts the attempt with `reason` (the first abort wins). A running attempt ends now; one
   * still taking its slots ends when they answer, its handler never called.
   */
  abort(reason: unknown): void {
    if (this.aborted || this.ended) return;
    this.aborted = true;
    this.reason = reason;
    this.controller?.abort(reason);
    if (this.started) this.finish(endOfError(this, reason));
  }

  /** Leased: the lease (or the concurrency slot) is gone. */
  leaseLost(what: 'lease' | 'slot'): void {
    if (this.aborted || this.ended) return;
    this.slotLost = what === 'slot';
    const { job, deps } = this;
    this.lost = this.slotLost ? slotTaken(job, deps.workerId) : attemptAborted(job, deps.workerId);
    this.abort(this.lost);
    this.onLost?.();
  }

  /** Leased: when the concurrency slot runs out unless renewed (never, holding none). */
  slotUntil(): number {
    return this.admission.until();
  }

  /** Leased: the concurrency slot is renewed with the lease. */
  renewAlso(): Promise<boolean> | undefined {
    return this.admission.slot === undefined ? undefined : this.admission.renew();
  }

  /** SettleWaiter: the ack's batch answered. */
  landed(landed: boolean): void {
    const { deps, definition, job, result } = this;
    if (landed) {
      if (deps.events.has('completed'))
        deps.events.emit('completed', { name: job.name, job, result });
      announceJobSettled(deps.driver, job.id);
      if (definition.onSettled !== undefined) {
        deps.onSettled(definition, { state: 'completed', result }, job);
      }
    } else {
      this.logger.info('the ack did not land: the job was cancelled or taken over');
    }
    deps.settling.ended(this);
  }

  /** SettleWaiter: the ack's batch failed; the ack goes on alone, retried while the lease lasts. */
  failed(error: unknown): void {
    const end: AttemptEnd = { kind: 'completed', result: this.result };
    void this.settleAlone(end, { error }).finally(() => this.deps.settling.ended(this));
  }

  private async admitThenRun(): Promise<void> {
    const outcome = await admitAttempt(this);
    if (outcome.kind === 'run') {
      this.admission = outcome.admission;
      this.run();
    } else if (outcome.kind === 'end') {
      this.finish(outcome.end, outcome.afterSettle);
    } else {
      // Nothing ran and nothing is held: the job is no longer this worker's, nothing settles.
      this.logger.warn('the job was cancelled or its lease lost while it waited for its key');
      this.ended = true;
      this.deps.keeper.remove(this);
      this.deps.handlerEnded(this);
    }
  }

  /**
   * The job waits on this worker for its key's slot: the worker's lease timer keeps renewing
   * it, and a lost lease (`onLost`) takes it out of the wait. Its worker slot is free meanwhile.
   */
  waitForKey(onLost: () => void): { stop(): void } {
    this.onLost = onLost;
    this.deps.waitsForKey();
    return {
      stop: () => {
        this.onLost = undefined;
      },
    };
  }

  private run(): void {
    // An abort (a drain, a lost lease) that came before the handler: it never starts.
    if (this.aborted) {
      this.finish(endOfError(this, this.reason));
      return;
    }
    this.started = true;
    const { definition, deps, job } = this;
    if (deps.events.has('active'))
      deps.events.emit('active', { name: job.name, job, attempt: job.attempts });
    const { timeout } = definition;
    if (timeout !== undefined) {
      this.cancelTimeout = timeoutsFor(deps.driver.clock)(
        () => this.abort(attemptTimedOut(job, timeout)),
        timeout,
      );
    }
    this.span = attemptSpanNow(job, deps.workerId);
    let answer: unknown;
    try {
      const context = new HandlerContext(this);
      answer =
        this.span === undefined
          ? definition.run(context)
          : this.span.run(() => definition.run(context));
    } catch (error) {
      answer = Promise.reject(error);
    }
    // Always answered a tick later: a handler that returns at once cannot recurse into the next.
    this.handlerSettled = (answer instanceof Promise ? answer : Promise.resolve(answer)).then(
      (value: unknown) => this.answered(value),
      (error: unknown) => this.threw(error),
    );
  }

  private answered(value: unknown): void {
    this.handlerDone = true;
    if (!this.ended) this.finish(endOfValue(this, value));
  }

  private threw(error: unknown): void {
    this.handlerDone = true;
    if (!this.ended) this.finish(endOfError(this, error));
  }

  /** The handler ended (or never ran): free the worker slot and the fleet slot, then settle. */
  private finish(end: AttemptEnd, afterSettle?: () => void): void {
    if (this.ended) return;
    this.ended = true;
    const { deps } = this;
    deps.keeper.remove(this);
    this.cancelTimeout?.();
    this.span?.end(spanOutcome(end));
    // The slot goes first: handed to a job waiting here, that job takes this worker slot.
    this.releaseSlot();
    deps.handlerEnded(this);
    deps.settling.began(this);
    const { reporter, jobLog } = this;
    if (reporter === undefined && jobLog === undefined) this.settle(end, afterSettle);
    else {
      // The last value and lines land before the settle clears the fence; a lost lease would
      // refuse them.
      const write = end.kind !== 'lease-lost';
      void Promise.all([reporter?.close(write), jobLog?.close(write)]).then(() =>
        this.settle(end, afterSettle),
      );
    }
  }

  private settle(end: AttemptEnd, afterSettle: (() => void) | undefined): void {
    const { deps } = this;
    if (end.kind === 'completed') {
      const result = end.result;
      this.result = result;
      deps.batcher.ackTo(
        result === undefined ? { fence: this.fence } : { fence: this.fence, result },
        this,
      );
      return;
    }
    void this.settleAlone(end, undefined).finally(() => {
      afterSettle?.();
      deps.settling.ended(this);
    });
  }

  /**
   * The slot frees as the handler ends, alongside the settle: the next job of the key need not
   * wait for the ack's batch window and round trip. A handler left behind (it ignored its abort)
   * still counts against the limit: its slot is renewed until it returns.
   */
  private releaseSlot(): void {
    const { admission, deps } = this;
    if (admission.slot === undefined) return;
    if (this.started && !this.handlerDone && this.handlerSettled !== undefined) {
      void releaseAfter(deps, this.logger, admission, this.handlerSettled);
      return;
    }
    deps.settling.began(this);
    void releaseNow(deps, this.logger, admission).finally(() => deps.settling.ended(this));
  }

  private async settleAlone(
    end: AttemptEnd,
    failedOnce: { readonly error: unknown } | undefined,
  ): Promise<void> {
    const { deps, definition, job } = this;
    try {
      const outcome = await settleAttempt(
        deps,
        this.logger,
        job,
        this.fence,
        end,
        definition.retry,
        this.lease,
        failedOnce,
      );
      if (outcome !== undefined) deps.onSettled(definition, outcome, job);
    } catch (error) {
      this.unexpected(error);
    }
  }

  private unexpected(error: unknown): void {
    this.deps.logger.error('an attempt failed unexpectedly', errorFields(error));
  }
}
