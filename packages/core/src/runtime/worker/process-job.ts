import type { Driver } from '../../contract/driver.js';
import type { ClaimedJob, Fence, JobRecord } from '../../contract/records.js';
import type { AnyJobDefinition, SettledOutcome } from '../jobs/job-types.js';
import { admit } from './admission.js';
import type { RuntimeLogger } from './logger.js';
import { errorFields, withFields } from './logger.js';
import { runAttempt } from './run-attempt.js';
import { type SettleDeps, settleAttempt } from './settle-attempt.js';

export interface ProcessDeps extends SettleDeps {
  readonly driver: Driver;
  readonly registry: ReadonlyMap<string, AnyJobDefinition>;
  readonly workerId: string;
  readonly visibilityTimeoutMs: number;
  readonly renewIntervalMs: number;
  readonly keyBusyDelayMs: number;
  readonly logger: RuntimeLogger;
  readonly defaultStepTimeoutMs?: number;
  readonly eventPollMs?: number;
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

/**
 * One claimed job from claim to settle: find its handler, take its fleet slots (or bounce it
 * when its key is busy), run the attempt, land the outcome, and start `onSettled`.
 */
export async function processJob(
  deps: ProcessDeps,
  job: ClaimedJob,
  controller: AbortController,
): Promise<void> {
  const fence = fenceOf(job, deps.workerId);
  const logger = withFields(deps.logger, { jobId: job.id, job: job.name, attempt: job.attempts });
  const definition = deps.registry.get(job.name);
  if (definition === undefined) {
    // The claim names exactly the registry's jobs, so only a driver breaking the contract
    // lands here; its lease lapses and a worker that knows the job takes it.
    throw new Error(
      `the ${deps.driver.name} driver handed worker ${deps.workerId} a ${JSON.stringify(job.name)} job, outside the names it claimed`,
    );
  }
  const settle = async (end: Parameters<typeof settleAttempt>[4]) => {
    const outcome = await settleAttempt(deps, logger, job, fence, end, definition.retry);
    if (outcome !== undefined) deps.onSettled(definition, outcome, job);
  };

  let admission: Awaited<ReturnType<typeof admit>>;
  try {
    admission = await admit({
      driver: deps.driver,
      definition,
      job,
      holder: `${deps.workerId}:${job.id}:${job.claim}`,
      ttlMs: deps.visibilityTimeoutMs,
    });
  } catch (error) {
    await settle({ kind: 'failed', error });
    return;
  }
  if (admission.busy !== false) {
    logger.debug('the job waits: its key is busy', { busy: admission.busy });
    await settle({ kind: 'key-busy', until: deps.driver.clock.now() + deps.keyBusyDelayMs });
    return;
  }
  try {
    const end = await runAttempt({
      driver: deps.driver,
      job,
      fence,
      definition,
      workerId: deps.workerId,
      visibilityTimeoutMs: deps.visibilityTimeoutMs,
      renewIntervalMs: deps.renewIntervalMs,
      logger,
      controller,
      renewAlso: () => admission.renew(),
      ...(deps.defaultStepTimeoutMs === undefined
        ? {}
        : { defaultStepTimeoutMs: deps.defaultStepTimeoutMs }),
      ...(deps.eventPollMs === undefined ? {} : { eventPollMs: deps.eventPollMs }),
    });
    await settle(end);
  } finally {
    await admission.release().catch((error: unknown) => {
      logger.warn('releasing the concurrency slot failed; it frees at its ttl', errorFields(error));
    });
  }
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
