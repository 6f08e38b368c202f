import type { Json } from '../../contract/records.js';
import { isGenerationId } from '../client/supersede.js';
import { type AttemptSpan, attemptSpanNow } from '../otel/attempt-span.js';
import { announceJobSettled } from '../settle-hub.js';
import { type Admitted, nothingHeld } from './admission.js';
import { type AdmittingAttempt, admitAttempt } from './attempt-admission.js';
import { HandlerContext } from './attempt-context.js';
import { attemptAborted, attemptTimedOut, slotTaken } from './attempt-errors.js';
import { AttemptTools } from './attempt-tools.js';
import type { Leased } from './lease-keeper.js';
import { errorFields } from './logger.js';
import { type AttemptEnd, endOfError, endOfValue, spanOutcome } from './run-attempt.js';
import { settleAttempt } from './settle-attempt.js';
import type { SettleWaiter } from './settle-batcher.js';
import { tellParent } from './tell-parent.js';

/**
 * One claimed job from claim to settle: its lease is kept from the claim (also while it waits
 * in the prefetch buffer), it takes its fleet slots when it has limits (or bounces when its key
 * is busy), runs its handler, frees its worker slot as the handler ends, and lands its outcome
 * behind that (an ack in the worker's next batch). An abort (lost lease, timeout, drain) ends
 * the attempt at once: a handler that ignores its signal is left behind, and the fence keeps
 * anything it writes from landing. What the handler is given is AttemptTools' (attempt-tools).
 *
 * The common job (no limits, a handler that reads neither `signal` nor `step`) costs this
 * object, its fence, the handler's context and promise, and its share of one ack batch.
 */
export class Attempt extends AttemptTools implements Leased, SettleWaiter, AdmittingAttempt {
  /** The handler was called. */
  private started = false;
  private ended = false;
  private handlerDone = false;
  /** Settles once the handler has answered or thrown. */
  private handlerSettled: Promise<void> | undefined;
  private admission: Admitted = nothingHeld;
  private span: AttemptSpan | undefined;
  private cancelTimeout: (() => void) | undefined;
  private result: Json | undefined;
  /** Set while the attempt waits here for its key's slot: a lost lease takes it out. */
  private onLost: (() => void) | undefined;

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
    this.abortSignal(reason);
    if (this.started) this.finish(endOfError(this, reason));
  }

  /** Leased: the lease (or the concurrency slot) is gone. */
  leaseLost(what: 'lease' | 'slot'): void {
    if (this.aborted || this.ended) return;
    this.slotLost = what === 'slot';
    const { job, worker } = this;
    this.lost = this.slotLost
      ? slotTaken(job, worker.workerId)
      : attemptAborted(job, worker.workerId);
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
    const { worker, definition, job, result } = this;
    if (landed) {
      if (worker.events.has('completed'))
        worker.events.emit('completed', { name: job.name, job, result });
      announceJobSettled(worker.driver, job.id);
      tellParent(worker, this.logger, job, 'completed');
      if (definition.onSettled !== undefined) {
        worker.hooks.start(definition, { state: 'completed', result }, job);
      }
    } else {
      this.logger.info('the ack did not land: the job was cancelled or taken over');
    }
    worker.settlingEnded(this);
  }

  /** SettleWaiter: the ack's batch failed; the ack goes on alone, retried while the lease lasts. */
  failed(error: unknown): void {
    const end: AttemptEnd = { kind: 'completed', result: this.result };
    void this.settleAlone(end, { error }).finally(() => this.worker.settlingEnded(this));
  }

  /**
   * The job waits on this worker for its key's slot: the worker's lease timer keeps renewing
   * it, and a lost lease (`onLost`) takes it out of the wait. Its worker slot is free meanwhile.
   */
  waitForKey(onLost: () => void): { stop(): void } {
    this.onLost = onLost;
    this.worker.waitsForKey();
    return {
      stop: () => {
        this.onLost = undefined;
      },
    };
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
      this.worker.keeper.remove(this);
      this.worker.handlerEnded(this);
    }
  }

  private run(): void {
    // An abort (a drain, a lost lease) that came before the handler: it never starts.
    if (this.aborted) {
      this.finish(endOfError(this, this.reason));
      return;
    }
    this.started = true;
    const { definition, worker, job } = this;
    if (worker.events.has('active'))
      worker.events.emit('active', { name: job.name, job, attempt: job.attempts });
    const { timeout } = definition;
    if (timeout !== undefined) {
      this.cancelTimeout = worker.schedule(
        () => this.abort(attemptTimedOut(job, timeout)),
        timeout,
      );
    }
    this.span = attemptSpanNow(job, worker.workerId);
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
    const { worker } = this;
    worker.keeper.remove(this);
    this.cancelTimeout?.();
    this.span?.end(spanOutcome(end));
    // The slot goes first: handed to a job waiting here, that job takes this worker slot.
    this.releaseSlot();
    worker.handlerEnded(this);
    worker.settlingBegan(this);
    const closing = this.closeTools(end.kind !== 'lease-lost');
    if (closing === undefined) this.settle(end, afterSettle);
    else void closing.then(() => this.settle(end, afterSettle));
  }

  private settle(end: AttemptEnd, afterSettle: (() => void) | undefined): void {
    if (end.kind === 'completed') {
      const result = end.result;
      this.result = result;
      this.worker.batcher.ackTo(
        result === undefined ? { fence: this.fence } : { fence: this.fence, result },
        this,
      );
      return;
    }
    void this.settleAlone(end, undefined).finally(() => {
      afterSettle?.();
      this.worker.settlingEnded(this);
    });
  }

  /**
   * The slot frees as the handler ends, alongside the settle: the next job of the key need not
   * wait for the ack's batch window and round trip. A handler left behind (it ignored its abort)
   * still counts against the limit: its slot is renewed until it returns.
   */
  private releaseSlot(): void {
    const { admission, worker } = this;
    if (admission.slot === undefined) return;
    if (this.started && !this.handlerDone && this.handlerSettled !== undefined) {
      void worker.slots.releaseAfter(admission, this.handlerSettled, this.logger);
      return;
    }
    worker.settlingBegan(this);
    void worker.slots.release(admission, this.logger).finally(() => worker.settlingEnded(this));
  }

  private async settleAlone(
    end: AttemptEnd,
    failedOnce: { readonly error: unknown } | undefined,
  ): Promise<void> {
    const { worker, definition, job } = this;
    try {
      const outcome = await settleAttempt({
        worker,
        logger: this.logger,
        job,
        fence: this.fence,
        lease: this.lease,
        retry: definition.retry,
        end,
        failedOnce,
      });
      if (outcome !== undefined) {
        if (outcome.state !== 'retrying') tellParent(worker, this.logger, job, outcome.state);
        worker.hooks.start(definition, outcome, job);
      }
    } catch (error) {
      this.unexpected(error);
    }
  }

  private unexpected(error: unknown): void {
    this.worker.logger.error('an attempt failed unexpectedly', errorFields(error));
  }
}
