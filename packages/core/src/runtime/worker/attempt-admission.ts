import type { ClaimedJob } from '../../contract/records.js';
import type { StepRecord } from '../../contract/steps.js';
import { isGenerationId, isSuperseded } from '../client/supersede.js';
import type { AnyJobDefinition } from '../jobs/job-types.js';
import { type Admission, type Admitted, admit, concurrencySlotOf } from './admission.js';
import type { RuntimeLogger } from './logger.js';
import type { AttemptEnd, NotRunError } from './run-attempt.js';
import type { WorkerCore } from './worker-core.js';

/** What taking a job's fleet slots decided: run it, end it unrun, or drop it (no longer ours). */
export type AdmissionOutcome =
  | { readonly kind: 'run'; readonly admission: Admitted }
  | { readonly kind: 'end'; readonly end: AttemptEnd; readonly afterSettle?: () => void }
  | { readonly kind: 'lost' };

/** What admission reads of the attempt it admits. */
export interface AdmittingAttempt {
  readonly worker: Pick<WorkerCore, 'driver' | 'slots' | 'workerId' | 'settings'>;
  readonly job: ClaimedJob;
  readonly definition: AnyJobDefinition;
  readonly logger: RuntimeLogger;
  storedSteps(): Promise<readonly StepRecord[]>;
  /** The job waits on this worker for its key's slot; a lost lease calls `onLost`. */
  waitForKey(onLost: () => void): { stop(): void };
}

const SUPERSEDED: NotRunError = {
  code: 'JOB_SUPERSEDED',
  message: 'a newer job of its debounce key (or whenBusy replace key) was enqueued since',
};
const SKIPPED: NotRunError = {
  code: 'JOB_SKIPPED',
  message: 'its concurrency key was busy (whenBusy: skip)',
};

const notRun = (error: NotRunError): AdmissionOutcome => ({
  kind: 'end',
  end: { kind: 'not-run', error },
});

/** Skip applies to a job's first start only: a retry or a resumed run waits for its key. */
const skipsWhenBusy = (definition: AnyJobDefinition, job: ClaimedJob): boolean =>
  definition.concurrency?.whenBusy === 'skip' && job.attempts === 1 && job.resumed !== true;

/**
 * Takes the concurrency and rate slots of a job with limits. A busy key bounces the job (a
 * suspend that spends no attempt), waking it on the slot's release; a failure to take a slot
 * hands it back unrun; the job's own key function throwing is the attempt's failure.
 */
export async function admitAttempt(attempt: AdmittingAttempt): Promise<AdmissionOutcome> {
  const { worker, job, definition, logger } = attempt;
  const { driver, slots, settings } = worker;
  const asked = slots.mark();
  let admission: Admission | 'lost';
  try {
    const slot = concurrencySlotOf(definition, job);
    admission = await slots.admit({
      slot,
      take: (handed) =>
        admit({
          driver,
          definition,
          job,
          holder: `${worker.workerId}:${job.id}:${job.claim}`,
          ttlMs: settings.visibilityTimeoutMs,
          steps: () => attempt.storedSteps(),
          slot,
          ...(handed === undefined ? {} : { handed }),
        }),
      keep: (onLost) => attempt.waitForKey(onLost),
      waits: !skipsWhenBusy(definition, job),
    });
  } catch (error) {
    return { kind: 'end', end: { kind: 'failed', error } };
  }
  if (admission === 'lost') return { kind: 'lost' };
  const until = driver.clock.now() + settings.keyBusyDelayMs;
  if (admission.busy === 'unavailable') {
    // The handler never ran: hand the job back without spending an attempt.
    logger.warn('taking the job’s fleet slot failed; handing it back', {
      error: String(admission.error),
    });
    return { kind: 'end', end: { kind: 'key-busy', until } };
  }
  if (admission.busy === 'concurrency' && skipsWhenBusy(definition, job)) return notRun(SKIPPED);
  if (admission.busy !== false) {
    logger.debug('the job waits: its key is busy', { busy: admission.busy });
    const { slot } = admission;
    if (slot === undefined) return { kind: 'end', end: { kind: 'key-busy', until } };
    // A release of the slot between the look and the park woke nobody: wake the job again.
    return {
      kind: 'end',
      end: { kind: 'key-busy', until, waitFor: slots.eventOf(slot) },
      afterSettle: () => slots.recheck(slot, asked),
    };
  }
  // Looked at once the job holds its key: a newer job enqueued while it waited still wins.
  if (isGenerationId(job.id)) return supersededOrRun(attempt, admission);
  return { kind: 'run', admission };
}

/** Runs the admitted job unless a newer job of its scope supersedes it (then its slot goes on). */
async function supersededOrRun(
  attempt: AdmittingAttempt,
  admission: Admitted,
): Promise<AdmissionOutcome> {
  const { worker, job, logger } = attempt;
  const { driver } = worker;
  const superseded = await isSuperseded(driver, job.id).catch((error: unknown) => error);
  if (superseded === false) return { kind: 'run', admission };
  await worker.slots.release(admission, logger);
  if (superseded === true) return notRun(SUPERSEDED);
  logger.warn('reading whether a newer job superseded the job failed; handing it back', {
    error: String(superseded),
  });
  const until = driver.clock.now() + worker.settings.keyBusyDelayMs;
  return { kind: 'end', end: { kind: 'key-busy', until } };
}
