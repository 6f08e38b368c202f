import { MAX_CLAIM_BATCH } from '../../contract/limits.js';
import type { ClaimedJob } from '../../contract/records.js';
import { Attempt } from './attempt.js';
import { announceBuried, announceStalled } from './lapsed-leases.js';
import { errorFields } from './logger.js';
import type { WorkerCore } from './worker-core.js';

/*
 * From claim to start. A claim's jobs are taken in, their leases kept from the claim on, and
 * wait in the prefetch buffer; the oldest start as worker slots free. Once stop() began nothing
 * starts: what a claim still brings, and what waits in the buffer, is handed back.
 */

/**
 * How many jobs the next claim may ask for. Settles not landed yet count against claims past
 * one round of `concurrency`: a slow or hung ack holds the worker back instead of piling up
 * finished jobs whose leases run out. Jobs waiting here for their key's slot take no worker
 * slot. At most one claim's worth: the loop reads a claim that filled its limit as "more may
 * wait", so a limit the driver call would cut down must never be asked for.
 */
export function claimRoom(worker: WorkerCore): number {
  const { concurrency, prefetch } = worker.settings;
  return Math.min(
    MAX_CLAIM_BATCH,
    concurrency +
      prefetch -
      worker.handlersRunning() -
      worker.buffer.size -
      Math.max(0, worker.unsettled - concurrency),
  );
}

/** Claims up to `limit` jobs and starts what free slots allow; answers how many came. */
export async function claimJobs(worker: WorkerCore, limit: number): Promise<number> {
  const { settings } = worker;
  const jobs = await worker.driver.claim({
    queues: worker.queues,
    limit,
    workerId: worker.workerId,
    visibilityTimeoutMs: settings.visibilityTimeoutMs,
    names: worker.names,
    dropExhausted: worker.dropExhausted,
    onExhausted: (buried) => announceBuried(worker, buried),
  });
  if (worker.state !== 'running') {
    // The claim came back after stop() began: no handler starts now.
    handBack(worker, jobs);
    return 0;
  }
  for (const job of jobs) take(worker, job);
  startBuffered(worker);
  return jobs.length;
}

/** A claimed job's lease is kept from the claim on; it waits in the buffer for a free slot. */
function take(worker: WorkerCore, job: ClaimedJob): void {
  const definition = worker.registry.get(job.name);
  if (definition === undefined) {
    // The claim names exactly the registry's jobs, so only a driver breaking the contract
    // lands here; its lease lapses and a worker that knows the job takes it.
    worker.logger.error('an attempt failed unexpectedly', {
      error: `the ${worker.driver.name} driver handed worker ${worker.workerId} a ${JSON.stringify(job.name)} job, outside the names it claimed`,
    });
    return;
  }
  const attempt = new Attempt(worker, job, definition);
  // Answered so late that the lease ends before a renewal could go out: the keeper would end
  // the attempt at its first tick, so its handler never starts. Nothing is given back: the
  // lease lapses by itself, and a hand-back would only be one more write to a slow backend.
  if (job.visibleAt - worker.settings.renewIntervalMs <= worker.clock.now()) {
    attempt.leaseLost('lease');
  }
  worker.keeper.add(attempt);
  worker.buffer.push(attempt);
  announceStalled(worker, job);
}

/** Starts buffered jobs while worker slots are free (never once stop() began). */
export function startBuffered(worker: WorkerCore): void {
  const { buffer, running } = worker;
  while (worker.state === 'running' && worker.handlersRunning() < worker.settings.concurrency) {
    const attempt = buffer.shift();
    if (attempt === undefined) return;
    running.add(attempt);
    attempt.start();
  }
}

/** stop() began: the jobs waiting in the buffer go back, none of them started. */
export function handBackBuffered(worker: WorkerCore): void {
  const waiting = worker.buffer.drain();
  for (const attempt of waiting) worker.keeper.remove(attempt);
  handBack(
    worker,
    waiting.map((attempt) => attempt.job),
  );
}

/**
 * Hands jobs back at once, due now, their attempt not counted (the next claim of a suspended
 * row is a resume), so another worker takes them; `worker.handingBack` holds the calls out.
 */
function handBack(worker: WorkerCore, jobs: readonly ClaimedJob[]): void {
  const { driver, logger, handingBack } = worker;
  for (const job of jobs) {
    const fence = { jobId: job.id, workerId: worker.workerId, claim: job.claim };
    const call: Promise<void> = driver.suspend(fence, { until: driver.clock.now() }).then(
      () => {},
      (error: unknown) => {
        logger.warn('handing back a job claimed during stop failed; its lease lapses', {
          ...errorFields(error),
          jobId: job.id,
        });
      },
    );
    handingBack.add(call);
    void call.finally(() => handingBack.delete(call));
  }
}
