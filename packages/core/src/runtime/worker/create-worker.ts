import { randomUUID } from 'node:crypto';
import { MAX_CLAIM_BATCH } from '../../contract/limits.js';
import type { ClaimedJob, JobRecord } from '../../contract/records.js';
import { configInvalid } from '../../errors/refusals.js';
import { onDue } from '../due-hub.js';
import type { AnyJobDefinition, JobResultOf, SettledOutcome } from '../jobs/job-types.js';
import { loadOtel } from '../otel/load-otel.js';
import { ClaimLoop } from './claim-loop.js';
import { drain, handBack as handBackJobs } from './drain.js';
import { createConsoleLogger, errorFields, withFields } from './logger.js';
import { runOnSettled } from './on-settled.js';
import { announceBuried, type ProcessDeps, processJob } from './process-job.js';
import { SettleBatcher } from './settle-batcher.js';
import { SlotWaits } from './slot-waits.js';
import { Emptying } from './waits.js';
import { WorkerEmitter } from './worker-events.js';
import { checkWorkerOptions } from './worker-options.js';
import type { StopOptions, Worker, WorkerEvents, WorkerOptions } from './worker-types.js';

/** How long `stop()` lets running attempts finish when it names no grace, ms. */
export const DEFAULT_GRACE_MS = 30_000;

interface Running {
  readonly job: ClaimedJob;
  readonly controller: AbortController;
}

/**
 * A worker: claims jobs of its queues as it has free slots, runs them with leases renewed, and
 * settles them in batches. Works through the driver contract alone, so the same on every driver.
 */
export function createWorker<const J extends readonly AnyJobDefinition[]>(
  options: WorkerOptions<J>,
): Worker<JobResultOf<J[number]>> {
  const settings = checkWorkerOptions(options);
  const { driver } = options;
  const { clock } = driver;
  const workerId = options.workerId ?? `worker-${randomUUID()}`;
  const logger = withFields(options.logger ?? createConsoleLogger(), { workerId });
  const registry = new Map<string, AnyJobDefinition>(options.jobs.map((job) => [job.name, job]));
  const queues = options.queues ?? [...new Set(options.jobs.map((job) => job.queue))];
  const dropExhausted = options.jobs.filter((job) => !job.retry.deadLetter).map((job) => job.name);
  // The worker claims only jobs it has a handler for: others stay ready for workers that do.
  const names = [...registry.keys()];
  const events = new WorkerEmitter(logger);
  const batcher = new SettleBatcher(driver, clock, settings.settleBatchMs);
  const running = new Map<string, Running>();
  const idle = new Emptying(() => running.size);
  const settling = new Set<Promise<void>>();
  const settled = new Emptying(() => settling.size);
  const stopSettled = new AbortController();
  // Aborted when stop() stops waiting: settle retries and slot holds give up there.
  const stopped = new AbortController();
  void loadOtel();

  const onSettled = (definition: AnyJobDefinition, outcome: SettledOutcome, job: JobRecord) => {
    if (definition.onSettled === undefined) return;
    const task = runOnSettled({
      definition,
      outcome,
      context: {
        payload: job.payload,
        job,
        attempt: job.attempts,
        logger: withFields(logger, { jobId: job.id, job: job.name }),
      },
      clock,
      logger: withFields(logger, { jobId: job.id, job: job.name }),
      signal: stopSettled.signal,
    });
    settling.add(task);
    void task.finally(() => {
      settling.delete(task);
      settled.changed();
    });
  };

  const slots = new SlotWaits(
    driver,
    clock,
    settings.renewIntervalMs,
    stopped.signal,
    logger,
    () => loop.wake(),
    settings.concurrency,
  );
  const deps: ProcessDeps = {
    driver,
    batcher,
    events,
    stopped: stopped.signal,
    dueAt: (at) => loop.dueAt(at),
    slots,
    random: options.random ?? Math.random,
    registry,
    workerId,
    visibilityTimeoutMs: settings.visibilityTimeoutMs,
    renewIntervalMs: settings.renewIntervalMs,
    keyBusyDelayMs: settings.keyBusyDelayMs,
    logger,
    onSettled,
    ...(options.defaultStepTimeoutMs === undefined
      ? {}
      : { defaultStepTimeoutMs: options.defaultStepTimeoutMs }),
    ...(options.eventPollMs === undefined ? {} : { eventPollMs: options.eventPollMs }),
  };

  const launch = (job: ClaimedJob): void => {
    const key = `${job.id}:${job.claim}`;
    const controller = new AbortController();
    running.set(key, { job, controller });
    void processJob(deps, job, controller)
      .catch((error: unknown) => logger.error('an attempt failed unexpectedly', errorFields(error)))
      .finally(() => {
        running.delete(key);
        idle.changed();
        loop.slotFreed();
      });
  };

  const loop = new ClaimLoop({
    clock,
    pollIntervalMs: settings.pollIntervalMs,
    logger,
    // Jobs waiting locally for a slot of their key run nothing: they take no worker slot.
    free: () => settings.concurrency - running.size + slots.waiting(),
    async claim(limit) {
      const jobs = await driver.claim({
        queues,
        limit: Math.min(limit, MAX_CLAIM_BATCH),
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
      for (const job of jobs) launch(job);
      return jobs.length;
    },
  });

  // Jobs claimed after stop() began go back at once, due now, their attempt not counted.
  const handingBack = new Set<Promise<void>>();
  const handBack = (jobs: readonly ClaimedJob[]): void =>
    handBackJobs({ driver, workerId, logger, jobs, pending: handingBack });

  let state: 'idle' | 'running' | 'stopping' | 'stopped' = 'idle';
  let stopListening = (): void => {};
  let unsubscribe: (() => Promise<void>) | undefined;
  let stopping: Promise<void> | undefined;
  const isStopping = () => stopping !== undefined;
  const dropSubscription = async (): Promise<void> => {
    const drop = unsubscribe;
    unsubscribe = undefined;
    await drop?.().catch((error: unknown) =>
      logger.warn('unsubscribing failed', errorFields(error)),
    );
  };

  // The grace bounds the whole stop, whatever driver call hangs (see drain.ts).
  const stopWithin = async (graceMs: number, startedAt: number): Promise<void> => {
    state = 'stopping';
    stopListening();
    slots.close();
    await drain({
      clock,
      logger,
      workerId,
      graceMs,
      startedAt,
      stopClaiming: () => loop.stop(),
      unsubscribe: dropSubscription,
      flushSettles: () => batcher.flushImmediately(),
      settlesLanded: () => batcher.drain(),
      running: () => running.values(),
      idle: () => idle.wait(),
      handedBack: () => Promise.all(handingBack).then(() => {}),
      hooksDone: () => settled.wait(),
    });
    stopped.abort();
    stopSettled.abort();
    await settled.wait();
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
      // stop() (or another start) ran while the check was out.
      if (state !== 'idle') return;
      state = 'running';
      stopListening = onDue(driver, (queue, at) => {
        if (queues.includes(queue)) loop.dueAt(at);
      });
      if (driver.subscribe !== undefined) {
        try {
          unsubscribe = await driver.subscribe(queues, () => loop.wake());
        } catch (error) {
          logger.warn('the wake subscription failed; polling only', errorFields(error));
        }
      }
      // stop() ran while the subscription was being made: it must not start claiming now.
      if (isStopping()) {
        await dropSubscription();
        return;
      }
      loop.start();
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
