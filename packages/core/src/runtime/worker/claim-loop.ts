import type { Clock } from '../../clock.js';
import { timeoutsFor } from '../timers.js';
import type { RuntimeLogger } from './logger.js';
import { errorFields } from './logger.js';

export interface ClaimLoopInput {
  readonly clock: Clock;
  readonly pollIntervalMs: number;
  readonly logger: RuntimeLogger;
  /** Free worker slots now (with prefetch: free places in slots and buffer together). */
  readonly free: () => number;
  /**
   * The smallest claim worth its round trip (default 1): with a prefetch buffer still half
   * full, a freed slot starts a buffered job and the claim waits until it can fill more.
   */
  readonly minClaim?: number;
  /** Claims up to `limit` jobs and starts them; answers how many it got. */
  readonly claim: (limit: number) => Promise<number>;
}

/** Due instants the loop keeps a timer for, at most (later ones wait for a poll). */
const MAX_DUE = 1_000;
/** How far ahead a due instant gets the timer; a later one waits for a poll. */
const DUE_HORIZON_MS = 24 * 3_600_000;

/**
 * When the worker claims: at start, on every wake, on every poll tick, when a job this worker
 * knows of becomes due (a retry, a sleep, a bounce or a delayed job it settled or saw enqueued:
 * one timer, for the earliest), and when a slot frees while more work may be waiting (a wake
 * not yet served, or a claim that filled every slot it asked for). One claim at a time; asks
 * that arrive meanwhile fold into one more pass.
 */
export class ClaimLoop {
  private running = false;
  private claiming: Promise<void> | undefined;
  private again = false;
  private moreWaiting = true;
  private freeing = false;
  private cancelPoll = (): void => {};
  /** Due instants ahead, ascending, without repeats. */
  private readonly due: number[] = [];
  private dueTimerAt = Number.POSITIVE_INFINITY;
  private cancelDue = (): void => {};

  constructor(private readonly input: ClaimLoopInput) {}

  start(): void {
    this.running = true;
    this.armPoll();
    this.request();
  }

  /** Stops claiming; answers once a claim in flight has come back. */
  async stop(): Promise<void> {
    this.running = false;
    this.cancelPoll();
    this.cancelDue();
    this.due.length = 0;
    await this.claiming;
  }

  /** A job this worker knows of becomes claimable at `at`: claim then. */
  dueAt(at: number): void {
    if (!this.running) return;
    const now = this.input.clock.now();
    if (at <= now) {
      this.wake();
      return;
    }
    if (at - now > DUE_HORIZON_MS) return;
    const { due } = this;
    let low = 0;
    let high = due.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((due[middle] ?? 0) < at) low = middle + 1;
      else high = middle;
    }
    if (due[low] === at) return;
    due.splice(low, 0, at);
    if (due.length > MAX_DUE) due.pop();
    this.armDue();
  }

  private armDue(): void {
    const next = this.due[0];
    if (next === undefined || next === this.dueTimerAt || !this.running) return;
    this.cancelDue();
    this.dueTimerAt = next;
    this.cancelDue = timeoutsFor(this.input.clock)(
      () => {
        this.dueTimerAt = Number.POSITIVE_INFINITY;
        const now = this.input.clock.now();
        let passed = 0;
        while (passed < this.due.length && (this.due[passed] ?? 0) <= now) passed += 1;
        this.due.splice(0, passed);
        this.wake();
        this.armDue();
      },
      Math.max(0, next - this.input.clock.now()),
    );
  }

  /** New work may be there (a wake-up). */
  wake(): void {
    this.moreWaiting = true;
    this.request();
  }

  /**
   * A worker slot came free. Slots free in bursts (a batch of settles lands at once, each
   * freeing one): the look waits for the burst to end, so it claims them all in one round trip
   * instead of one job first and the rest in a second claim behind it.
   */
  slotFreed(): void {
    if (this.freeing) return;
    this.freeing = true;
    setImmediate(() => {
      this.freeing = false;
      if (this.moreWaiting && this.input.free() >= (this.input.minClaim ?? 1)) this.request();
    });
  }

  private armPoll(): void {
    this.cancelPoll = timeoutsFor(this.input.clock)(() => {
      if (!this.running) return;
      this.armPoll();
      this.moreWaiting = true;
      this.request();
    }, this.input.pollIntervalMs);
  }

  private request(): void {
    if (!this.running) return;
    if (this.claiming !== undefined) {
      this.again = true;
      return;
    }
    this.claiming = this.pass().finally(() => {
      this.claiming = undefined;
      // An ask that arrived after the pass's last look but before this line would be lost.
      if (this.again) this.request();
    });
  }

  private async pass(): Promise<void> {
    do {
      this.again = false;
      const limit = this.input.free();
      if (limit <= 0 || limit < (this.input.minClaim ?? 1)) return;
      try {
        const got = await this.input.claim(limit);
        // A full batch: more may wait. A short one: the queue is drained until the next wake.
        this.moreWaiting = got >= limit;
        if (this.moreWaiting) this.again = true;
      } catch (error) {
        this.input.logger.error('claim failed; trying again at the next poll', errorFields(error));
        this.again = false;
        return;
      }
    } while (this.again && this.running);
  }
}
