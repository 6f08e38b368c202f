import { randomUUID } from 'node:crypto';
import type { Clock } from '../../clock.js';
import type { Driver } from '../../contract/driver.js';
import type { ClaimedJob } from '../../contract/records.js';
import type { AnyJobDefinition } from '../jobs/job-types.js';
import { LogShipper } from '../logs/log-shipper.js';
import { type ScheduleTimeout, timeoutsFor } from '../timers.js';
import type { Attempt } from './attempt.js';
import { BatchCollectors } from './batch-collector.js';
import { ClaimLoop } from './claim-loop.js';
import { Fifo } from './fifo.js';
import { claimJobs, claimRoom, startBuffered } from './intake.js';
import { LeaseKeeper } from './lease-keeper.js';
import { createConsoleLogger, type RuntimeLogger, withFields } from './logger.js';
import { SettledHooks } from './on-settled.js';
import { SettleBatcher } from './settle-batcher.js';
import { SlotWaits } from './slot-waits.js';
import { UnrunNamesWatch } from './unrun-names.js';
import { Emptying } from './waits.js';
import { WorkerEmitter } from './worker-events.js';
import type { WorkerSettings } from './worker-options.js';
import { WorkerWake } from './worker-wake.js';

/** Where a worker is in its life: start() moves it to running, stop() on to stopped. */
export type WorkerState = 'idle' | 'running' | 'stopping' | 'stopped';

/**
 * Everything one worker's attempts share, made once per worker and never per job: its checked
 * settings and driver, the pieces that serve every job (claim loop, lease keeper, slot waits,
 * settle batcher, events, onSettled hooks, log shipper, batch collectors), and the counts that
 * decide how much to claim and what stop() waits for. Each stage of a job's path (intake.ts,
 * attempt.ts, settle-attempt.ts, drain.ts) reads and moves this one object; README.md draws it.
 */
export class WorkerCore {
  readonly driver: Driver;
  readonly clock: Clock;
  /** The clock's timers (the test clock's own, when it has them), looked up once. */
  readonly schedule: ScheduleTimeout;
  readonly workerId: string;
  readonly logger: RuntimeLogger;
  readonly registry: ReadonlyMap<string, AnyJobDefinition>;
  readonly queues: readonly string[];
  /** The names a claim asks for: only jobs this worker has a handler for. */
  readonly names: readonly string[];
  /** Jobs without a dead letter: a claim drops (not buries) their exhausted rows. */
  readonly dropExhausted: readonly string[];
  /** The backoff jitter's random source. */
  readonly random: () => number;
  readonly events: WorkerEmitter;
  readonly batcher: SettleBatcher;
  /** The worker's one lease-renewal timer: every claimed job is in it until its handler ends. */
  readonly keeper: LeaseKeeper;
  /** Jobs waiting for their key's slot, and slot releases (which wake those waiting). */
  readonly slots: SlotWaits;
  /** The `onSettled` calls in progress, one per outcome that landed. */
  readonly hooks: SettledHooks;
  /** The worker's one flusher of `ctx.log` lines. */
  readonly logShipper: LogShipper;
  /** Where the attempts of batch jobs gather until their batch runs. */
  readonly batches: BatchCollectors;
  readonly loop: ClaimLoop;
  readonly wake: WorkerWake;
  readonly unrun: UnrunNamesWatch;

  state: WorkerState = 'idle';
  /** stop()'s one run, once it was called on a started worker. */
  stopping: Promise<void> | undefined;
  /** Handlers running now: each holds one of `concurrency` worker slots until it returns. */
  readonly running = new Set<Attempt>();
  /** Claimed, lease kept, not started yet (at most `prefetch`): the next free slots take these. */
  readonly buffer = new Fifo<Attempt>();
  /** Hand-backs of jobs claimed after stop() began, not answered yet. */
  readonly handingBack = new Set<Promise<void>>();
  /** Settles and slot releases of ended attempts not answered yet; per attempt in `ending`. */
  private unsettledCount = 0;
  private readonly ending = new Map<Attempt, number>();
  /** Empty once no handler runs and every settle and slot release has been answered. */
  readonly idle = new Emptying(() => this.running.size + this.unsettledCount);
  private readonly givingUp = new AbortController();
  /** Aborted when stop() stops waiting: settle retries and slot holds give up there. */
  readonly stopped: AbortSignal = this.givingUp.signal;

  constructor(readonly settings: WorkerSettings) {
    const { driver, jobs } = settings;
    this.driver = driver;
    this.clock = driver.clock;
    this.schedule = timeoutsFor(driver.clock);
    this.workerId = settings.workerId ?? `worker-${randomUUID()}`;
    const logger = withFields(settings.logger ?? createConsoleLogger(), {
      workerId: this.workerId,
    });
    this.logger = logger;
    this.registry = new Map(jobs.map((job) => [job.name, job]));
    this.queues = settings.queues ?? [...new Set(jobs.map((job) => job.queue))];
    this.names = [...this.registry.keys()];
    this.dropExhausted = jobs.filter((job) => !job.retry.deadLetter).map((job) => job.name);
    this.random = settings.random ?? Math.random;
    this.events = new WorkerEmitter(logger);
    this.batcher = new SettleBatcher(driver, this.clock, settings.settleBatchMs);
    this.keeper = new LeaseKeeper({
      driver,
      visibilityTimeoutMs: settings.visibilityTimeoutMs,
      everyMs: settings.renewIntervalMs,
      logger,
    });
    this.slots = new SlotWaits({
      driver,
      renewIntervalMs: settings.renewIntervalMs,
      stopped: this.stopped,
      logger,
      onFreed: () => this.loop.wake(),
      maxWaiting: settings.concurrency,
    });
    this.hooks = new SettledHooks(this.clock, logger);
    this.logShipper = new LogShipper(driver, logger);
    this.batches = new BatchCollectors(this.schedule, logger);
    this.loop = new ClaimLoop({
      clock: this.clock,
      pollIntervalMs: settings.pollIntervalMs,
      logger,
      free: () => claimRoom(this),
      minClaim: Math.max(1, Math.ceil(settings.prefetch / 2)),
      claim: (limit) => claimJobs(this, limit),
    });
    this.wake = new WorkerWake({
      driver,
      queues: this.queues,
      loop: this.loop,
      keeper: this.keeper,
      logger,
    });
    this.unrun = new UnrunNamesWatch({
      driver,
      queues: this.queues,
      runs: new Set(this.names),
      staleAfterMs: settings.staleReadyAfterMs,
      logger,
    });
  }

  /** Settles and slot releases of ended attempts not answered yet. */
  get unsettled(): number {
    return this.unsettledCount;
  }

  /** Handlers running now; jobs waiting here for their key's slot run nothing and take none. */
  handlersRunning(): number {
    return this.running.size - this.slots.waiting();
  }

  /** The attempt's handler ended (or never started): its worker slot is free now. */
  handlerEnded(attempt: Attempt): void {
    this.running.delete(attempt);
    startBuffered(this);
    this.idle.changed();
    this.loop.slotFreed();
  }

  /** The attempt began waiting here for its key's slot: it runs nothing, its slot is free. */
  waitsForKey(): void {
    startBuffered(this);
    this.loop.slotFreed();
  }

  /** An ended attempt sent its settle or its slot's release: stop() waits for the answer. */
  settlingBegan(attempt: Attempt): void {
    this.unsettledCount += 1;
    this.ending.set(attempt, (this.ending.get(attempt) ?? 0) + 1);
  }

  /** That settle or release was answered. */
  settlingEnded(attempt: Attempt): void {
    this.unsettledCount -= 1;
    const left = (this.ending.get(attempt) ?? 1) - 1;
    if (left > 0) this.ending.set(attempt, left);
    else this.ending.delete(attempt);
    this.idle.changed();
    if (this.unsettledCount >= this.settings.concurrency) this.loop.slotFreed();
  }

  /** Jobs whose handlers ended but whose settles (or slot releases) have not been answered. */
  unlanded(): ClaimedJob[] {
    return [...this.ending.keys()].map((attempt) => attempt.job);
  }

  /** stop() waits no longer: settle retries, slot holds and onSettled retries give up. */
  stopWaiting(): void {
    this.givingUp.abort();
    this.hooks.abort();
  }
}
