import { randomUUID } from 'node:crypto';
import { MAX_CLAIM_BATCH } from '../../contract/limits.js';
import type { ClaimedJob } from '../../contract/records.js';
import { configInvalid } from '../../errors/refusals.js';
import type { AnyJobDefinition, JobResultOf } from '../jobs/job-types.js';
import { LogShipper } from '../logs/log-shipper.js';
import { loadOtel } from '../otel/load-otel.js';
import { timeoutsFor } from '../timers.js';
import { Attempt } from './attempt.js';
import { BatchCollectors } from './batch-collector.js';
import { ClaimLoop } from './claim-loop.js';
import { drain, handBack as handBackJobs } from './drain.js';
import { Fifo } from './fifo.js';
import { LeaseKeeper } from './lease-keeper.js';
import { createConsoleLogger, withFields } from './logger.js';
import { SettledHooks } from './on-settled.js';
import { announceBuried, type ProcessDeps } from './process-job.js';
import { SettleBatcher } from './settle-batcher.js';
import { SlotWaits } from './slot-waits.js';
import { announceStalled } from './stalled.js';
import { UnrunNamesWatch } from './unrun-names.js';
import { Emptying } from './waits.js';
import { WorkerEmitter } from './worker-events.js';
import { checkWorkerOptions } from './worker-options.js';
import type {
  StopOptions,
  Worker,
  WorkerEvents,
  WorkerJobsOf,
  WorkerOptions,
} from './worker-types.js';
import { WorkerWake } from './worker-wake.js';

/** How long `stop()` lets running attempts finish when it names no grace, ms. */
export const DEFAULT_GRACE_MS = 30_000;

/**
 * A worker: claims jobs of its queues as it has free slots, runs them with leases renewed, and
 * settles them in batches. Works through the driver contract alone, so the same on every driver.
 */
export function createWorker<const J extends readonly AnyJobDefinition[]>(
  options: WorkerOptions<J>,
): Worker<JobResultOf<J[number]>, WorkerJobsOf<J[number]>> {
  const settings = checkWorkerOptions(options);
  const { driver, jobs } = settings;
  const { clock } = driver;
  const workerId = settings.workerId ?? `worker-${randomUUID()}`;
  const logger = withFields(settings.logger ?? createConsoleLogger(), { workerId });
  const registry = new Map<string, AnyJobDefinition>(jobs.map((job) => [job.name, job]));
  const queues = settings.queues ?? [...new Set(jobs.map((job) => job.queue))];
  const dropExhausted = jobs.filter((job) => !job.retry.deadLetter).map((job) => job.name);
  // The worker claims only jobs it has a handler for: others stay ready for workers that do.
  const names = [...registry.keys()];
  const events = new WorkerEmitter(logger);
  const unrun = new UnrunNamesWatch({
    driver,
    queues,
    runs: new Set(names),
    staleAfterMs: settings.staleReadyAfterMs,
    logger,
  });
  const batcher = new SettleBatcher(driver, clock, settings.settleBatchMs);
  // Handlers running now: each holds one of `concurrency` worker slots until it returns.
  const running = new Set<Attempt>();
  // Claimed, lease kept, not started yet (at most `prefetch`): the next free slots take these.
  const buffer = new Fifo<Attempt>();
  // Settles and slot releases of ended attempts not yet answered; per attempt in `ending`.
  let unsettled = 0;
  const ending = new Map<Attempt, number>();
  const idle = new Emptying(() => running.size + unsettled);
  const hooks = new SettledHooks(clock, logger);
  // Aborted when stop() stops waiting: settle retries and slot holds give up there.
  const stopped = new AbortController();
  void loadOtel();

  const slots = new SlotWaits(
    driver,
    clock,
    settings.renewIntervalMs,
    stopped.signal,
    logger,
    () => loop.wake(),
    settings.concurrency,
  );
  const keeper = new LeaseKeeper(
    driver,
    settings.visibilityTimeoutMs,
    settings.renewIntervalMs,
    logger,
  );
  const afterEnd = {
    began: (attempt: Attempt) => {
      unsettled += 1;
      ending.set(attempt, (ending.get(attempt) ?? 0) + 1);
    },
    ended: (attempt: Attempt) => {
      unsettled -= 1;
      const left = (ending.get(attempt) ?? 1) - 1;
      if (left > 0) ending.set(attempt, left);
      else ending.delete(attempt);
      idle.changed();
      if (unsettled >= settings.concurrency) loop.slotFreed();
    },
  };
  const deps: ProcessDeps = {
    driver,
    batcher,
    events,
    stopped: stopped.signal,
    dueAt: (at) => loop.dueAt(at),
    slots,
    keeper,
    random: settings.random ?? Math.random,
    registry,
    workerId,
    visibilityTimeoutMs: settings.visibilityTimeoutMs,
    keyBusyDelayMs: settings.keyBusyDelayMs,
    logger,
    onSettled: (definition, outcome, job) => hooks.start(definition, outcome, job),
    handlerEnded: (attempt) => {
      running.delete(attempt);
      pump();
      idle.changed();
      loop.slotFreed();
    },
    settling: afterEnd,
    logShipper: new LogShipper(driver, logger),
    batches: new BatchCollectors(timeoutsFor(clock), logger),
    waitsForKey: () => {
      pump();
      loop.slotFreed();
    },
    ...(settings.defaultStepTimeoutMs === undefined
      ? {}
      : { defaultStepTimeoutMs: settings.defaultStepTimeoutMs }),
    ...(settings.eventPollMs === undefined ? {} : { eventPollMs: settings.eventPollMs }),
  };

  // A claimed job's lease is kept from the claim on; it waits in the buffer for a free slot.
  const take = (job: ClaimedJob): void => {
    const definition = registry.get(job.name);
    if (definition === undefined) {
      // The claim names exactly the registry's jobs, so only a driver breaking the contract
      // lands here; its lease lapses and a worker that knows the job takes it.
      logger.error('an attempt failed unexpectedly', {
        error: `the ${driver.name} driver handed worker ${workerId} a ${JSON.stringify(job.name)} job, outside the names it claimed`,
      });
      return;
    }
    const attempt = new Attempt(deps, job, definition);
    // Answered so late that the lease ends before a renewal could go out: the keeper would end
    // the attempt at its first tick, so its handler never starts. Nothing is given back: the
    // lease lapses by itself, and a hand-back would only be one more write to a slow backend.
    if (job.visibleAt - settings.renewIntervalMs <= clock.now()) attempt.leaseLost('lease');
    keeper.add(attempt);
    buffer.push(attempt);
    announceStalled(deps, job);
  };

  // Starts buffered jobs while slots are free (never once stop() began: those are handed back).
  const pump = (): void => {
    // Jobs waiting locally for a slot of their key run nothing: they take no worker slot.
    while (state === 'running' && running.size - slots.waiting() < settings.concurrency) {
      const attempt = buffer.shift();
      if (attempt === undefined) return;
      running.add(attempt);
      attempt.start();
    }
  };

  const loop = new ClaimLoop({
    clock,
    pollIntervalMs: settings.pollIntervalMs,
    logger,
    // Settles not landed yet count against claims past one round of `concurrency`: a slow or
    // hung ack holds the worker back instead of piling up finished jobs whose leases run out.
    // Jobs waiting locally for a slot of their key run nothing: they take no worker slot.
    // At most one claim's worth: the loop reads a claim that filled its limit as "more may
    // wait", so a limit the driver call would cut down must never be asked for.
    free: () =>
      Math.min(
        MAX_CLAIM_BATCH,
        settings.concurrency +
          settings.prefetch -
          running.size +
          slots.waiting() -
          buffer.size -
          Math.max(0, unsettled - settings.concurrency),
      ),
    minClaim: Math.max(1, Math.ceil(settings.prefetch / 2)),
    async claim(limit) {
      const jobs = await driver.claim({
        queues,
        limit,
        workerId,
        visibilityTimeoutMs: settings.visibilityTimeoutMs,
        names,
        dropExhausted,
        onExhausted: (buried) => announceBuried(deps, buried),
      });
      if (state !== 'running') {
        // The claim came back after stop() began: no handler starts now.
        handBack(jobs);
        return 0;
      }
      for (const job of jobs) take(job);
      pump();
      return jobs.length;
    },
  });

  // Jobs claimed after stop() began, and buffered jobs not started, go back at once, due now,
  // their attempt not counted (the next claim of a suspended row is a resume).
  const handingBack = new Set<Promise<void>>();
  const handBack = (jobs: readonly ClaimedJob[]): void =>
    handBackJobs({ driver, workerId, logger, jobs, pending: handingBack });

  const handBackBuffered = (): void => {
    const waiting = buffer.drain();
    for (const attempt of waiting) keeper.remove(attempt);
    handBack(waiting.map((attempt) => attempt.job));
  };

  const wake = new WorkerWake({ driver, queues, loop, keeper, logger });
  let state: 'idle' | 'running' | 'stopping' | 'stopped' = 'idle';
  let stopping: Promise<void> | undefined;
  const isStopping = () => stopping !== undefined;

  // The grace bounds the whole stop, whatever driver call hangs (see drain.ts).
  const stopWithin = async (graceMs: number, startedAt: number): Promise<void> => {
    state = 'stopping';
    wake.stopDue();
    slots.close();
    await drain({
      clock,
      logger,
      workerId,
      graceMs,
      startedAt,
      handBackBuffered,
      stopClaiming: () => Promise.all([loop.stop(), unrun.stop()]).then(() => {}),
      unsubscribe: () => wake.unsubscribeDriver(),
      flushSettles: () => batcher.flushImmediately(),
      settlesLanded: () => batcher.drain(),
      running: () => running,
      unlanded: () => [...ending.keys()].map((attempt) => attempt.job),
      idle: () => idle.wait(),
      handedBack: () => Promise.all(handingBack).then(() => {}),
      hooksDone: () => hooks.wait(),
    });
    stopped.abort();
    hooks.abort();
    await hooks.wait();
    state = 'stopped';
  };

  return {
    workerId,
    async start() {
      if (state === 'running') return;
      if (state !== 'idle') {
        throw configInvalid({
          option: 'worker',
          reason: 'was stopped and cannot start again',
          allowed: 'starts once; to work again, create a new one',
          example: 'worker = createWorker({ driver, jobs, concurrency: 10 }); await worker.start()',
        });
      }
      // An unmigrated or unreachable backend fails the start at once, not every poll after it.
      await driver.check();
      // The tracing API (when installed) is loaded before any attempt, so none waits for it.
      await loadOtel();
      // stop() (or another start) ran while the check or the load was out.
      if (state !== 'idle') return;
      state = 'running';
      await wake.open();
      // stop() ran while the subscription was being made: it must not start claiming now.
      if (isStopping()) {
        await wake.unsubscribeDriver();
        return;
      }
      loop.start();
      unrun.start();
    },
    stop(stopOptions: StopOptions = {}) {
      const graceMs = stopOptions.graceMs ?? DEFAULT_GRACE_MS;
      if (typeof graceMs !== 'number' || !Number.isFinite(graceMs) || graceMs < 0) {
        return Promise.reject(
          configInvalid({
            option: 'graceMs',
            reason: `is ${String(graceMs)}; it must be a finite number of ms >= 0`,
            allowed: 'must be a finite number of ms >= 0',
            example: 'worker.stop({ graceMs: 30_000 })',
          }),
        );
      }
      if (state === 'idle') {
        state = 'stopped';
        return Promise.resolve();
      }
      stopping ??= stopWithin(graceMs, clock.now());
      return stopping;
    },
    // The emitter carries results as stored JSON; each is what its job's `run` returned.
    on: (event, listener) =>
      events.on(event, listener as (payload: WorkerEvents[typeof event]) => void),
    running: () => running.size - slots.waiting(),
  };
}
