import type { ClaimedJob } from '../../contract/records.js';
import type { StepRecord } from '../../contract/steps.js';
import type { AnyJobDefinition } from '../jobs/job-types.js';
import { type Admission, type Admitted, admit, concurrencySlotOf } from './admission.js';
import type { RuntimeLogger } from './logger.js';
import type { ProcessDeps } from './process-job.js';
import type { AttemptEnd } from './run-attempt.js';

/** What taking a job's fleet slots decided: run it, end it unrun, or drop it (no longer ours). */
export type AdmissionOutcome =
  | { readonly kind: 'run'; readonly admission: Admitted }
  | { readonly kind: 'end'; readonly end: AttemptEnd; readonly afterSettle?: () => void }
  | { readonly kind: 'lost' };

export interface AdmittingAttempt {
  readonly deps: ProcessDeps;
  readonly job: ClaimedJob;
  readonly definition: AnyJobDefinition;
  readonly logger: RuntimeLogger;
  storedSteps(): Promise<readonly StepRecord[]>;
  /** The job waits on this worker for its key's slot; a lost lease calls `onLost`. */
  waitForKey(onLost: () => void): { stop(): void };
}

/**
 * Takes the concurrency and rate slots of a job with limits. A busy key bounces the job (a
 * suspend that spends no attempt), waking it on the slot's release; a failure to take a slot
 * hands it back unrun; the job's own key function throwing is the attempt's failure.
 */
export async function admitAttempt(attempt: AdmittingAttempt): Promise<AdmissionOutcome> {
  const { deps, job, definition, logger } = attempt;
  const asked = deps.slots.mark();
  let admission: Admission | 'lost';
  try {
    const slot = concurrencySlotOf(definition, job);
    admission = await deps.slots.admit(
      slot,
      (handed) =>
        admit({
          driver: deps.driver,
          definition,
          job,
          holder: `${deps.workerId}:${job.id}:${job.claim}`,
          ttlMs: deps.visibilityTimeoutMs,
          steps: () => attempt.storedSteps(),
          slot,
          ...(handed === undefined ? {} : { handed }),
        }),
      (onLost) => attempt.waitForKey(onLost),
    );
  } catch (error) {
    return { kind: 'end', end: { kind: 'failed', error } };
  }
  if (admission === 'lost') return { kind: 'lost' };
  const until = deps.driver.clock.now() + deps.keyBusyDelayMs;
  if (admission.busy === 'unavailable') {
    // The handler never ran: hand the job back without spending an attempt.
    logger.warn('taking the job’s fleet slot failed; handing it back', {
      error: String(admission.error),
    });
    return { kind: 'end', end: { kind: 'key-busy', until } };
  }
  if (admission.busy !== false) {
    logger.debug('the job waits: its key is busy', { busy: admission.busy });
    const { slot } = admission;
    if (slot === undefined) return { kind: 'end', end: { kind: 'key-busy', until } };
    // A release of the slot between the look and the park woke nobody: wake the job again.
    return {
      kind: 'end',
      end: { kind: 'key-busy', until, waitFor: deps.slots.eventOf(slot) },
      afterSettle: () => deps.slots.recheck(slot, asked),
    };
  }
  return { kind: 'run', admission };
}
