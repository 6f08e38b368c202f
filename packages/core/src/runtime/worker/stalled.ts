import type { AttemptRecord } from '../../contract/attempts.js';
import type { ClaimedJob } from '../../contract/records.js';
import { errorFields } from './logger.js';
import type { ProcessDeps } from './process-job.js';

/**
 * The record of the latest claim before `claim`, when that claim's lease lapsed: the claim that
 * took the row again wrote it in its own change, so it is there by the time the claim answers.
 */
export function lapsedBefore(
  records: readonly AttemptRecord[],
  claim: number,
): AttemptRecord | undefined {
  let latest: AttemptRecord | undefined;
  for (const record of records) {
    if (record.claim < claim && (latest === undefined || record.claim > latest.claim)) {
      latest = record;
    }
  }
  return latest?.outcome === 'lapsed' ? latest : undefined;
}

/**
 * Emits `stalled` for a job this worker took after another claim's lease lapsed. A claim's answer
 * does not say why its row was claimable (a retry and a lapsed lease look alike), so the job's
 * attempt history tells, read once. Only while someone listens, and only for a job claimed
 * before that is not a resume: a first claim, the usual case, costs nothing.
 */
export function announceStalled(
  deps: Pick<ProcessDeps, 'driver' | 'events' | 'logger'>,
  job: ClaimedJob,
): void {
  if (job.claim <= 1 || job.resumed || !deps.events.has('stalled')) return;
  deps.driver.attempts.list(job.id).then(
    (history) => {
      const lapsed = lapsedBefore(history?.records ?? [], job.claim);
      if (lapsed !== undefined) deps.events.emit('stalled', { name: job.name, job, lapsed });
    },
    (error: unknown) => {
      deps.logger.warn('the attempt history of a job claimed again could not be read', {
        jobId: job.id,
        ...errorFields(error),
      });
    },
  );
}
