import type { Driver } from '../../contract/driver.js';
import type { ClaimedJob, Fence, JobRecord } from '../../contract/records.js';
import type { StepRecord } from '../../contract/steps.js';
import type { AnyJobDefinition, SettledOutcome } from '../jobs/job-types.js';
import { type Admission, type Admitted, admit, concurrencySlotOf } from './admission.js';
import { keepLease } from './lease-keeper.js';
import type { RuntimeLogger } from './logger.js';
import { withFields } from './logger.js';
import { runAttempt } from './run-attempt.js';
import { type SettleDeps, settleAttempt } from './settle-attempt.js';
import type { LeaseClock } from './settle-retry.js';
import type { SlotWaits } from './slot-waits.js';

export interface ProcessDeps extends SettleDeps {
  readonly registry: ReadonlyMap<string, AnyJobDefinition>;
  readonly workerId: string;
  readonly renewIntervalMs: number;
  readonly keyBusyDelayMs: number;
  readonly logger: RuntimeLogger;
  readonly defaultStepTimeoutMs?: number;
  readonly eventPollMs?: number;
  /** Bounced jobs and released slots: a release makes the jobs waiting for it due at once. */
  readonly slots: SlotWaits;
  /** Starts `onSettled` for an outcome that landed; the worker tracks it until it ends. */
  readonly onSettled: (
    definition: AnyJobDefinition,
    outcome: SettledOutcome,
    job: JobRecord,
  ) => void;
}

const fenceOf = (job: ClaimedJob, workerId: string): Fence => ({
  jobId: job.id,
  workerId,
  claim: job.claim,
});

/** The run's stored steps, read at most once per attempt (a failed read is tried again). */
function stepsOnce(driver: Driver, runId: string): () => Promise<readonly StepRecord[]> {
  let read: Promise<readonly StepRecord[]> | undefined;
  return () => {
    read ??= driver.steps.list(runId).catch((error: unknown) => {
      read = undefined;
      throw error;
    });
    return read;
  };
}

/**
 * One claimed job from claim to settle: find its handler, take its fleet slots (or bounce it
 * when its key is busy), run the attempt, land the outcome, and start `onSettled`.
 */
export async function processJob(
  deps: ProcessDeps,
  job: ClaimedJob,
  controller: AbortController,
): Promise<void> {
  const { driver } = deps;
  const fence = fenceOf(job, deps.workerId);
  const logger = withFields(deps.logger, { jobId: job.id, job: job.name, attempt: job.attempts });
  const definition = deps.registry.get(job.name);
  if (definition === undefined) {
    // The claim names exactly the registry's jobs, so only a driver breaking the contract
    // lands here; its lease lapses and a worker that knows the job takes it.
    throw new Error(
      `the ${driver.name} driver handed worker ${deps.workerId} a ${JSON.stringify(job.name)} job, outside the names it claimed`,
    );
  }
  const lease: LeaseClock = { until: job.visibleAt };
  const settle = async (end: Parameters<typeof settleAttempt>[4]) => {
    const outcome = await settleAttempt(deps, logger, job, fence, end, definition.retry, lease);
    if (outcome !== undefined) deps.onSettled(definition, outcome, job);
  };
  const steps = stepsOnce(driver, job.runId);

  let admission: Admission | 'lost';
  const asked = deps.slots.mark();
  try {
    const slot = concurrencySlotOf(definition, job);
    admission = await deps.slots.admit(
      slot,
      (handed) =>
        admit({
          driver,
          definition,
          job,
          holder: `${deps.workerId}:${job.id}:${job.claim}`,
          ttlMs: deps.visibilityTimeoutMs,
          steps,
          slot,
          ...(handed === undefined ? {} : { handed }),
        }),
      (onLost) =>
        keepLease({
          driver,
          fence,
          visibilityTimeoutMs: deps.visibilityTimeoutMs,
          everyMs: deps.renewIntervalMs,
          logger,
          lease,
          onLost,
        }),
    );
  } catch (error) {
    // The job's own key function threw: that is the attempt's failure.
    await settle({ kind: 'failed', error });
    return;
  }
  if (admission === 'lost') {
    logger.warn('the job was cancelled or its lease lost while it waited for its key');
    return;
  }
  if (admission.busy === 'unavailable') {
    // The handler never ran: hand the job back without spending an attempt.
    logger.warn('taking the job’s fleet slot failed; handing it back', {
      error: String(admission.error),
    });
    await settle({ kind: 'key-busy', until: driver.clock.now() + deps.keyBusyDelayMs });
    return;
  }
  if (admission.busy !== false) {
    logger.debug('the job waits: its key is busy', { busy: admission.busy });
    const { slot } = admission;
    await settle({
      kind: 'key-busy',
      until: driver.clock.now() + deps.keyBusyDelayMs,
      ...(slot === undefined ? {} : { waitFor: deps.slots.eventOf(slot) }),
    });
    // A release of the slot between the look and the park woke nobody: wake the job again.
    if (slot !== undefined) deps.slots.recheck(slot, asked);
    return;
  }
  const { end, handlerSettled } = await runAttempt({
    driver,
    job,
    fence,
    definition,
    workerId: deps.workerId,
    visibilityTimeoutMs: deps.visibilityTimeoutMs,
    renewIntervalMs: deps.renewIntervalMs,
    logger,
    controller,
    lease,
    steps,
    renewAlso: () => admission.renew(),
    events: deps.events,
    ...(deps.defaultStepTimeoutMs === undefined
      ? {}
      : { defaultStepTimeoutMs: deps.defaultStepTimeoutMs }),
    ...(deps.eventPollMs === undefined ? {} : { eventPollMs: deps.eventPollMs }),
  });
  // The slot frees as the handler ends, alongside the settle: the next job of the key need not
  // wait for the ack's batch window and round trip.
  let released: Promise<void> | undefined;
  if (handlerSettled === undefined) released = releaseNow(deps, logger, admission);
  else void releaseAfter(deps, logger, admission, handlerSettled);
  try {
    await settle(end);
  } finally {
    await released;
  }
}

/**
 * Gives the concurrency slot up once the handler has really ended: an aborted handler that
 * ignores its signal still runs, and still counts against the limit, so its slot is renewed
 * until it returns (or the worker stops, and the slot frees at its ttl).
 */
async function releaseAfter(
  deps: ProcessDeps,
  logger: RuntimeLogger,
  admission: Admitted,
  handlerSettled: Promise<void>,
): Promise<void> {
  if (admission.slot === undefined) return;
  const stillRunning = await deps.slots.holdWhile(handlerSettled, () => admission.renew());
  if (stillRunning) {
    logger.warn('the worker stopped while an aborted handler still ran; its slot frees at its ttl');
    return;
  }
  await releaseNow(deps, logger, admission);
}

async function releaseNow(
  deps: ProcessDeps,
  logger: RuntimeLogger,
  admission: Admitted,
): Promise<void> {
  await deps.slots.release(admission, logger);
}

/** Reports a claim's lease burials: the event per row, and the job's `onSettled`. */
export function announceBuried(
  deps: Pick<ProcessDeps, 'events' | 'registry' | 'onSettled'>,
  buried: readonly JobRecord[],
): void {
  for (const row of buried) {
    const state = row.state === 'failed' ? 'failed' : 'dead';
    const error = row.lastError ?? {
      code: 'LEASE_LAPSED',
      message: 'the lease lapsed on the final attempt',
    };
    deps.events.emit(state, { job: row, error });
    const definition = deps.registry.get(row.name);
    if (definition !== undefined) deps.onSettled(definition, { state, error }, row);
  }
}
