import {
  type AttemptHistory,
  type AttemptOutcome,
  appendAttempt,
  attemptEnding,
  type ByIdOptions,
  type JobError,
  NO_ATTEMPTS,
} from '@berth/core/driver';
import type { NatsContext } from './context.js';
import { effectiveJob } from './index/row.js';
import type { StoredJob } from './record.js';

/**
 * The attempt history lives in the job's own record (`StoredJob.attemptLog`, bounded by the
 * cap): the one conditional write that ends an attempt carries its record, so the two land
 * together or not at all, and a stale fence (whose write never lands) records nothing.
 */

/** The history of `job` with the end of its running attempt appended (`job` as its claim left it). */
export function endedAttempt(
  job: StoredJob,
  outcome: AttemptOutcome,
  now: number,
  error?: JobError,
): AttemptHistory {
  return appendAttempt(
    job.attemptLog,
    attemptEnding({
      attempt: job.attempts,
      claim: job.claim,
      workerId: job.claimedBy ?? '',
      claimedAt: job.claimedAt ?? job.updatedAt,
      endedAt: now,
      outcome,
      error,
    }),
  );
}

/** `attempts.list`: read as `get` reads (the index after a full sync), tenancy alike. */
export async function listAttempts(
  context: NatsContext,
  id: string,
  options: ByIdOptions,
): Promise<AttemptHistory | undefined> {
  await context.mirror.syncFull();
  const row = context.index.row(id);
  const job = row === undefined ? undefined : effectiveJob(row);
  if (job === undefined) return undefined;
  if (options.tenantId !== undefined && job.tenantId !== options.tenantId) return undefined;
  return structuredClone(job.attemptLog ?? NO_ATTEMPTS);
}
