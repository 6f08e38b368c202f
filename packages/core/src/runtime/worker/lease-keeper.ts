import type { Driver } from '../../contract/driver.js';
import type { Fence } from '../../contract/records.js';
import { timeoutsFor } from '../timers.js';
import type { RuntimeLogger } from './logger.js';
import { errorFields } from './logger.js';
import type { LeaseClock } from './settle-retry.js';

/** One claimed job whose lease the keeper renews, from its claim until its handler ends. */
export interface Leased {
  readonly fence: Fence;
  /** Moved to each renewal's new end. */
  readonly lease: LeaseClock;
  /**
   * Renews whatever else the attempt holds for as long as its lease (a concurrency slot);
   * answering false (the slot is gone) ends the attempt as a lost lease does. Absent: nothing.
   */
  renewAlso(): Promise<boolean> | undefined;
  /**
   * When the attempt's concurrency slot runs out unless renewed first (infinite when it holds
   * none). Renewed with the lease, but answered apart: a lease renewed while its slot's renewals
   * fail must not outlive the slot.
   */
  slotUntil(): number;
  /**
   * The lease is gone (the job was cancelled, or lapsed and was re-claimed), or the attempt's
   * concurrency slot is (`slot`: the worker stalled past its ttl and another holder took it).
   */
  leaseLost(what: 'lease' | 'slot'): void;
}

/**
 * Renews the leases of every job a worker holds on ONE timer. Each job is due `everyMs` after
 * its claim (or its last renewal); a tick renews every job due within half a period, so jobs
 * claimed together renew together, and no job is renewed later than `everyMs` after the last
 * time. `extendMany` answering false for a job means the fence no longer holds; a renewal that
 * throws is logged and tried again next tick. Whatever an attempt holds ends by the worker's own
 * clock: one whose lease or concurrency slot would run out before its next renewal (its renewals
 * fail, or hang) ends now, as one whose lease was taken does. The fence refuses a stale worker's
 * writes, but only an attempt that has ended starts no more steps beside the worker that takes
 * its job over, and only a slot given up in time keeps a key's limit.
 */
export class LeaseKeeper {
  /** Jobs held and when each is due; a job whose renewal is out is in `renewing` instead. */
  private readonly due = new Map<Leased, number>();
  private readonly renewing = new Set<Leased>();
  private timerAt = Number.POSITIVE_INFINITY;
  private cancelTimer = (): void => {};
  private readonly schedule;
  private readonly driver: Driver;
  private readonly visibilityTimeoutMs: number;
  private readonly everyMs: number;
  private readonly logger: RuntimeLogger;

  constructor(input: {
    readonly driver: Driver;
    /** The lease each renewal asks for, ms. */
    readonly visibilityTimeoutMs: number;
    /** How long after its claim (or last renewal) a job is renewed, ms. */
    readonly everyMs: number;
    readonly logger: RuntimeLogger;
  }) {
    this.driver = input.driver;
    this.visibilityTimeoutMs = input.visibilityTimeoutMs;
    this.everyMs = input.everyMs;
    this.logger = input.logger;
    this.schedule = timeoutsFor(input.driver.clock);
  }

  /** Jobs whose leases are kept now. */
  get size(): number {
    return this.due.size + this.renewing.size;
  }

  add(job: Leased): void {
    const at = this.driver.clock.now() + this.everyMs;
    this.due.set(job, at);
    if (at < this.timerAt) this.arm(at);
  }

  /** Stops renewing `job` (its handler ended); a renewal out for it is answered to no one. */
  remove(job: Leased): void {
    if (!this.due.delete(job)) this.renewing.delete(job);
    if (this.size === 0) this.disarm();
  }

  /**
   * Renews `jobId`'s lease now, out of turn (its cancel was heard of): a refusal ends the attempt
   * as at any renewal. Nothing when the job is not kept here or a renewal for it is out. A
   * linear look over the jobs held (at most concurrency + prefetch), made only on such a notice.
   */
  renewNow(jobId: string): void {
    for (const job of this.due.keys()) {
      if (job.fence.jobId !== jobId) continue;
      this.due.delete(job);
      this.renewing.add(job);
      void this.renew([job], this.driver.clock.now());
      return;
    }
  }

  private disarm(): void {
    this.cancelTimer();
    this.cancelTimer = () => {};
    this.timerAt = Number.POSITIVE_INFINITY;
  }

  private arm(at: number): void {
    this.disarm();
    this.timerAt = at;
    this.cancelTimer = this.schedule(() => this.tick(), Math.max(0, at - this.driver.clock.now()));
  }

  private tick(): void {
    this.timerAt = Number.POSITIVE_INFINITY;
    this.cancelTimer = () => {};
    const now = this.driver.clock.now();
    this.dropLapsed(now);
    const horizon = now + this.everyMs / 2;
    const batch: Leased[] = [];
    let next = Number.POSITIVE_INFINITY;
    for (const [job, at] of this.due) {
      if (at <= horizon) batch.push(job);
      else if (at < next) next = at;
    }
    for (const job of batch) {
      this.due.delete(job);
      this.renewing.add(job);
    }
    // Every lease due in this tick goes out in ONE `extendMany`, on one timer.
    if (batch.length > 0) void this.renew(batch, now);
    // A renewal still out when what it renews nears its end is looked at again then: one that
    // never answers must not keep the attempt running past its lease or its slot.
    for (const job of this.renewing) next = Math.min(next, this.givenUpAt(job));
    if (next !== Number.POSITIVE_INFINITY) this.arm(next);
  }

  /** When the first of what `job` holds runs out by this worker's clock, and which it is. */
  private heldUntil(job: Leased): { until: number; what: 'lease' | 'slot' } {
    const slot = job.slotUntil();
    return job.lease.until <= slot
      ? { until: job.lease.until, what: 'lease' }
      : { until: slot, what: 'slot' };
  }

  /**
   * When an attempt whose renewal is still out gives up: once its lease or slot would run out
   * before the next renewal could go out, as when its renewals fail (`runsOut`).
   */
  private givenUpAt(job: Leased): number {
    return this.heldUntil(job).until - this.everyMs;
  }

  private async renew(batch: readonly Leased[], at: number): Promise<void> {
    let held: readonly boolean[];
    try {
      held = await this.driver.extendMany(
        batch.map((job) => job.fence),
        this.visibilityTimeoutMs,
      );
    } catch (error) {
      // Tried again next tick: the fence, not this timer, keeps a stale worker from writing.
      if (batch.some((job) => this.renewing.has(job))) {
        this.logger.warn('lease renewal failed; trying again', errorFields(error));
      }
      for (const job of batch) this.settle(job, this.runsOut(job));
      return;
    }
    await Promise.all(
      batch.map(async (job, index) => {
        if (held[index] !== true) return this.settle(job, 'lease');
        if (this.renewing.has(job)) job.lease.until = at + this.visibilityTimeoutMs;
        let also: boolean | undefined;
        try {
          also = await job.renewAlso();
        } catch (error) {
          if (this.renewing.has(job)) {
            this.logger.warn('slot renewal failed; trying again', errorFields(error));
          }
        }
        this.settle(job, also === false ? 'slot' : this.runsOut(job));
      }),
    );
  }

  /** What of the job's would run out before its next renewal goes out, if anything. */
  private runsOut(job: Leased): 'lease' | 'slot' | undefined {
    const held = this.heldUntil(job);
    return held.until <= this.driver.clock.now() + this.everyMs ? held.what : undefined;
  }

  /**
   * A tick that finds a lease or slot already past its end woke late (a stopped process, a long
   * pause): another worker may hold the job or the key now, so the attempt ends at once instead
   * of running on until a renewal answers. So does one whose renewal has gone unanswered until
   * what it renews nears its end.
   */
  private dropLapsed(now: number): void {
    for (const job of this.due.keys()) {
      const held = this.heldUntil(job);
      if (held.until > now) continue;
      this.due.delete(job);
      job.leaseLost(held.what);
    }
    for (const job of this.renewing) {
      if (this.givenUpAt(job) > now) continue;
      this.renewing.delete(job);
      job.leaseLost(this.heldUntil(job).what);
    }
    if (this.size === 0) this.disarm();
  }

  /** A renewal answered for `job`: it is kept again, or told what it lost. */
  private settle(job: Leased, lost: 'lease' | 'slot' | undefined): void {
    // Removed while the renewal was out: its handler ended, nobody is told.
    if (!this.renewing.delete(job)) return;
    if (lost !== undefined) {
      if (this.size === 0) this.disarm();
      job.leaseLost(lost);
      return;
    }
    this.add(job);
  }
}
