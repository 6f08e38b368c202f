import type { Driver } from '../../contract/driver.js';
import type { ClaimedJob, Fence, JobRecord, NackItem } from '../../contract/records.js';
import { screenJobError } from '../../screen/settle.js';
import type { SettledOutcome } from '../jobs/job-types.js';

/*
 * A fenced settle that is sent again after its answer was lost (a dropped connection) answers
 * false when the first send landed. These read the row to tell that apart from a settle that
 * never landed (a cancel, a takeover, a burial). The claim number only grows, and no write but
 * this attempt's settle leaves the row in the settle's state under this very claim and attempt
 * count: a cancel leaves `cancelled`, a burial `LEASE_LAPSED`, a takeover a higher claim, a
 * requeue attempts 0. Unknown (unreadable, purged, or claimed again since) counts as not landed.
 */

/** What a nack settles a job as. */
export type NackOutcome = Exclude<SettledOutcome, { state: 'completed' }>;

const readRow = (driver: Driver, fence: Fence): Promise<JobRecord | undefined> =>
  driver.get(fence.jobId).catch(() => undefined);

const sameAttempt = (record: JobRecord | undefined, fence: Fence, job: ClaimedJob) =>
  record !== undefined && record.claim === fence.claim && record.attempts === job.attempts;

/** Whether an ack sent earlier landed: the row is `completed` under this claim. */
export async function ackLandedEarlier(driver: Driver, fence: Fence): Promise<boolean> {
  const record = await readRow(driver, fence);
  return record?.state === 'completed' && record.claim === fence.claim;
}

/** Whether a cancel-nack sent earlier landed: the row is `cancelled` under this claim, with its error. */
export async function cancelLandedEarlier(
  driver: Driver,
  fence: Fence,
  code: string,
): Promise<boolean> {
  const record = await readRow(driver, fence);
  return (
    record?.state === 'cancelled' && record.claim === fence.claim && record.lastError?.code === code
  );
}

/**
 * What a nack sent earlier left, when it landed: the row holds this attempt's error under this
 * claim, and its real state decides the outcome (dead, failed, or sent back to work: retrying).
 */
export async function nackLandedAs(nack: {
  readonly driver: Driver;
  readonly fence: Fence;
  readonly job: ClaimedJob;
  /** The nack as sent. */
  readonly item: NackItem;
  /** What it meant to settle the job as. */
  readonly outcome: NackOutcome;
}): Promise<NackOutcome | undefined> {
  const { driver, fence, job, item, outcome } = nack;
  const record = await readRow(driver, fence);
  if (record === undefined || !sameAttempt(record, fence, job)) return undefined;
  // The driver stored the screened error: compare what it stored.
  const sent = screenJobError(item.error);
  const stored = record.lastError;
  if (stored?.message !== sent.message || stored.code !== sent.code) return undefined;
  switch (record.state) {
    case 'dead':
    case 'failed':
      return { state: record.state, error: outcome.error };
    case 'ready':
    case 'delayed':
      return outcome.state === 'retrying'
        ? outcome
        : { state: 'retrying', error: outcome.error, retryAt: record.runAt };
    default:
      return undefined;
  }
}

/**
 * Whether a suspend sent earlier landed: the row is parked under this claim (read as `ready`
 * once due, or once its event woke it).
 */
export async function suspendLandedEarlier(
  driver: Driver,
  fence: Fence,
  job: ClaimedJob,
): Promise<boolean> {
  const record = await readRow(driver, fence);
  return (
    sameAttempt(record, fence, job) && (record?.state === 'suspended' || record?.state === 'ready')
  );
}
