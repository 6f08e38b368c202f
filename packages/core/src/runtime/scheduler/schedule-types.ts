import type { Driver } from '../../contract/driver.js';
import type { Json } from '../../contract/records.js';
import type { BackgroundLogger } from '../background-logger.js';
import type { JobContract } from '../jobs/job-types.js';

/** The job a schedule enqueues: a job definition (`defineJob`), or a bare job name. */
export type ScheduledJob =
  | string
  | {
      readonly name: string;
      readonly queue?: string | undefined;
      readonly retry?: { readonly maxAttempts?: number | undefined } | undefined;
    };

/**
 * The payload a schedule of `J` stores: for a job definition or contract, what its `run`
 * receives (the schedule's payload is stored as given, not run through the job's schema), so a
 * payload that does not fit the job does not compile; for a bare job name, any JSON.
 */
export type SchedulePayload<J> =
  J extends JobContract<infer _TInput, infer TPayload, infer _TResult> ? TPayload : Json;

export interface ScheduleDefinition<J extends ScheduledJob = ScheduledJob> {
  /** Unique among the scheduler's schedules; part of each slot's key and id. */
  readonly name: string;
  /** A cron expression (5 fields, or 6 with seconds first), as `cron-parser` reads it. */
  readonly cron: string;
  /** An IANA zone the expression is read in. Default UTC. */
  readonly timezone?: string;
  readonly job: J;
  readonly payload?: SchedulePayload<J>;
  /** Overrides the job's queue. */
  readonly queue?: string;
  readonly priority?: number;
  /** Overrides the job's `retry.maxAttempts`. */
  readonly maxAttempts?: number;
  readonly tenantId?: string;
}

export interface SchedulerOptions<S extends readonly ScheduledJob[] = readonly ScheduledJob[]> {
  readonly driver: Driver;
  /**
   * Schedules in code. Each schedule's payload is checked against its own job at compile time.
   * Default none: the scheduler then runs only the schedules stored by the driver
   * (`client.schedules`), which it runs in any case, picking up each change at its next tick.
   */
  readonly schedules?: { readonly [K in keyof S]: ScheduleDefinition<S[K]> };
  /**
   * On taking the lead (a start, a failover), the latest `maxSlots` slots at or before now are
   * enqueued, so a restart after downtime runs what it missed, up to that bound. Default 1;
   * 0 enqueues only slots that come after the lead was taken.
   *
   * `neverRun` is what a schedule no leader ever ran (just added or renamed) runs of its past:
   * `'none'` (default: a nightly job deployed in the afternoon first runs at night) or the latest
   * n slots. Either way the schedule is then recorded as seen, so a later lead catches up from
   * there by `maxSlots`.
   */
  readonly catchUp?: { readonly maxSlots?: number; readonly neverRun?: 'none' | number };
  /** The leader lease's length, ms. Default 30 000; longer than `tickMs`. */
  readonly leaseTtlMs?: number;
  /** How often the scheduler renews its lease and looks for due slots, ms. Default 1 000. */
  readonly tickMs?: number;
  /** The leader lease's name; schedulers sharing it elect one leader. Default `berth.scheduler`. */
  readonly leaseName?: string;
  /** This scheduler's lease holder name. Default `scheduler-<uuid>`. */
  readonly holderId?: string;
  readonly logger?: BackgroundLogger;
}

/** One slot the scheduler handed to the driver. */
export interface EnqueuedSlot {
  readonly schedule: string;
  /** The tenant of a stored schedule (`client.schedules`) that has one. */
  readonly tenantId?: string;
  /** The slot's instant, epoch ms. */
  readonly slot: number;
  readonly jobId: string;
  /**
   * True when the slot's job existed already and its mark was raised now: a write of the slot
   * that landed without its mark (a NATS leader that died between the two), or an enqueue of
   * that id made outside the scheduler. A slot found under its mark is not in `enqueued` at all.
   */
  readonly deduped: boolean;
}

/** What one tick did. */
export interface SchedulerTick {
  /** Whether this scheduler held the lead during the tick. */
  readonly leader: boolean;
  readonly enqueued: readonly EnqueuedSlot[];
}

export interface Scheduler {
  readonly holderId: string;
  /**
   * Checks the driver (`driver.check()`: rejects at once with DRIVER_NOT_MIGRATED or
   * DRIVER_UNAVAILABLE), runs the first tick, then ticks every `tickMs` until stopped.
   */
  start(): Promise<void>;
  /**
   * Stops ticking, waits for a tick in flight (it stops before its next slot), and gives the
   * lead up. Until `start()` again, every tick (one asked for during the stop included) does
   * nothing and answers `{ leader: false, enqueued: [] }`, so none retakes the lead.
   */
  stop(): Promise<void>;
  /** One tick now: take or renew the lead, then enqueue the due slots. */
  tick(): Promise<SchedulerTick>;
  /** Whether this scheduler held the lead at its last tick. */
  isLeader(): boolean;
}
