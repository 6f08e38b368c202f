import { attemptDrained } from './attempt-errors.js';
import { handBackBuffered } from './intake.js';
import { until } from './waits.js';
import type { WorkerCore } from './worker-core.js';

/**
 * The part of the grace kept for handing running jobs back, ms: at most this, and at most a
 * tenth of the grace. Attempts still running that long before the grace ends are aborted
 * (WORKER_DRAINING) so their hand-backs land within the grace.
 */
export const STOP_HANDBACK_MS = 1_000;

/**
 * After the grace, how long `stop()` still waits for driver answers already on their way (the
 * hand-backs of a short grace), ms of real time: network latency is not the app's clock.
 */
export const STOP_SLACK_MS = 25;

/** When, for a stop called at `startedAt`, running attempts are aborted and handed back. */
export const handBackAt = (startedAt: number, graceMs: number): number =>
  startedAt + graceMs - Math.min(STOP_HANDBACK_MS, graceMs / 10);

/**
 * A worker's stop, bounded by its grace whatever hangs: attempts may finish until the hand-back
 * point, then the ones still running are aborted and handed back, and everything — a claim or
 * unsubscribe that hangs, the hand-backs, the settles, the onSettled hooks — is waited for until
 * the grace ends, then STOP_SLACK_MS at most for driver answers on their way. What has not
 * landed by then is left to its lease, which lapses (its job runs again), and said in a log.
 * Answers whether everything landed.
 */
export async function drain(stop: {
  readonly worker: WorkerCore;
  readonly graceMs: number;
  /** When stop() was called: the grace runs from there. */
  readonly startedAt: number;
}): Promise<boolean> {
  const { worker, graceMs, startedAt } = stop;
  const { clock, logger, batcher } = worker;
  const deadline = startedAt + graceMs;
  handBackBuffered(worker);
  // A claim in flight and the unsubscribe may hang: they are waited for within the grace only.
  const claimsEnded = Promise.all([worker.loop.stop(), worker.unrun.stop()]);
  const unsubscribed = worker.wake.unsubscribeDriver();
  // No settle may wait on a window the clock has to move for: the worker is going away.
  batcher.flushImmediately();
  await until(clock, worker.idle.wait(), handBackAt(startedAt, graceMs));
  const aborted = [...worker.running];
  if (aborted.length > 0) {
    logger.info('the grace is ending; handing the running jobs back', {
      jobs: aborted.length,
      graceMs,
    });
    for (const attempt of aborted) {
      attempt.abort(attemptDrained(attempt.job, worker.workerId, graceMs));
    }
  }
  let answered = false;
  const driverWork = Promise.all([
    // A claim that comes back now hands its jobs back at once.
    claimsEnded.then(() => Promise.all(worker.handingBack)),
    unsubscribed,
    worker.idle.wait().then(() => batcher.drain()),
  ]).then(() => {
    answered = true;
  });
  // A settle that lands may start an onSettled hook: hooks get the grace, and no slack.
  const finished = await until(
    clock,
    driverWork.then(() => worker.hooks.wait()),
    deadline,
  );
  const landed = finished || answered || (await slack(driverWork));
  if (!landed) {
    const ids = new Set<string>();
    for (const { job } of worker.running) ids.add(job.id);
    for (const job of worker.unlanded()) ids.add(job.id);
    const left = [...ids];
    logger.warn(
      'the grace ended with driver calls still out; jobs not handed back are left to their leases, which lapse, and run again',
      { jobs: left.length, jobIds: left, graceMs },
    );
  }
  return landed;
}

/** Whether `done` settles within STOP_SLACK_MS of real time. */
async function slack(done: Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const answered = await Promise.race([
    done.then(
      () => true,
      () => true,
    ),
    new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), STOP_SLACK_MS);
    }),
  ]);
  clearTimeout(timer);
  return answered;
}
