import type { Clock } from '../../clock.js';
import type { Driver } from '../../contract/driver.js';
import type { ClaimedJob } from '../../contract/records.js';
import { attemptDrained } from './attempt-errors.js';
import type { RuntimeLogger } from './logger.js';
import { errorFields } from './logger.js';
import { until } from './waits.js';

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

/** What a worker's stop waits on and acts on. */
export interface DrainInput {
  readonly clock: Clock;
  readonly logger: RuntimeLogger;
  readonly workerId: string;
  readonly graceMs: number;
  /** When stop() was called: the grace runs from there. */
  readonly startedAt: number;
  /** Hands back the prefetched jobs not started (due now, the attempt not counted). */
  readonly handBackBuffered: () => void;
  /** Stops claiming; answers once a claim in flight came back (it may hang). */
  readonly stopClaiming: () => Promise<void>;
  /** Drops the wake subscription (it may hang). */
  readonly unsubscribe: () => Promise<void>;
  /** Sends every settle at once from now on. */
  readonly flushSettles: () => void;
  /** Answers once every settle sent so far has been answered. */
  readonly settlesLanded: () => Promise<void>;
  /** The attempts whose handlers still run: a drain aborts them. */
  readonly running: () => Iterable<{
    readonly job: ClaimedJob;
    abort(reason: unknown): void;
  }>;
  /** Jobs whose handlers ended but whose settles (or slot releases) have not landed. */
  readonly unlanded: () => Iterable<ClaimedJob>;
  /** Answers once nothing runs. */
  readonly idle: () => Promise<void>;
  /** Answers once the hand-backs of jobs claimed after the stop began have been answered. */
  readonly handedBack: () => Promise<void>;
  /** Answers once every onSettled hook in flight ended. */
  readonly hooksDone: () => Promise<void>;
}

/**
 * A worker's stop, bounded by its grace whatever hangs: attempts may finish until the hand-back
 * point, then the ones still running are aborted and handed back, and everything — a claim or
 * unsubscribe that hangs, the hand-backs, the settles, the onSettled hooks — is waited for until
 * the grace ends, then STOP_SLACK_MS at most for driver answers on their way. What has not
 * landed by then is left to its lease, which lapses (its job runs again), and said in a log.
 * Answers whether everything landed.
 */
export async function drain(input: DrainInput): Promise<boolean> {
  const { clock, logger, graceMs } = input;
  const deadline = input.startedAt + graceMs;
  input.handBackBuffered();
  const claimsEnded = input.stopClaiming();
  const unsubscribed = input
    .unsubscribe()
    .catch((error: unknown) => logger.warn('unsubscribing failed', errorFields(error)));
  // No settle may wait on a window the clock has to move for: the worker is going away.
  input.flushSettles();
  await until(clock, input.idle(), handBackAt(input.startedAt, graceMs));
  const aborted = [...input.running()];
  if (aborted.length > 0) {
    logger.info('the grace is ending; handing the running jobs back', {
      jobs: aborted.length,
      graceMs,
    });
    for (const attempt of aborted) {
      attempt.abort(attemptDrained(attempt.job, input.workerId, graceMs));
    }
  }
  let answered = false;
  const driverWork = Promise.all([
    // A claim that comes back now hands its jobs back at once.
    claimsEnded.then(input.handedBack),
    unsubscribed,
    input.idle().then(input.settlesLanded),
  ]).then(() => {
    answered = true;
  });
  // A settle that lands may start an onSettled hook: hooks get the grace, and no slack.
  const finished = await until(clock, driverWork.then(input.hooksDone), deadline);
  const landed = finished || answered || (await slack(driverWork));
  if (!landed) {
    const ids = new Set<string>();
    for (const { job } of input.running()) ids.add(job.id);
    for (const job of input.unlanded()) ids.add(job.id);
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

/** Hands back jobs a claim brought after the stop began; `pending` holds the calls out. */
export function handBack(input: {
  readonly driver: Driver;
  readonly workerId: string;
  readonly logger: RuntimeLogger;
  readonly jobs: readonly ClaimedJob[];
  readonly pending: Set<Promise<void>>;
}): void {
  const { driver, logger } = input;
  for (const job of input.jobs) {
    const fence = { jobId: job.id, workerId: input.workerId, claim: job.claim };
    // Due now, its attempt not counted: another worker takes it at once.
    const call: Promise<void> = driver.suspend(fence, { until: driver.clock.now() }).then(
      () => {},
      (error: unknown) => {
        logger.warn('handing back a job claimed during stop failed; its lease lapses', {
          ...errorFields(error),
          jobId: job.id,
        });
      },
    );
    input.pending.add(call);
    void call.finally(() => input.pending.delete(call));
  }
}
