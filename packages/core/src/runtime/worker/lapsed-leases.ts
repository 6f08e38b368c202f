import type { AttemptRecord } from '../../contract/attempts.js';
import type { ClaimedJob, JobRecord } from '../../contract/records.js';
import { announceJobSettled } from '../settle-hub.js';
import { errorFields } from './logger.js';
import type { WorkerCore } from './worker-core.js';

/*
 * What a claim tells of leases that lapsed: a job this worker took again after another claim's
 * lease lapsed (`stalled`), and the rows the claim buried because their final attempt's lease
 * lapsed (`dead` or `failed`, LEASE_LAPSED).
 */

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
  worker: Pick<WorkerCore, 'driver' | 'events' | 'logger'>,
  job: ClaimedJob,
): void {
  if (job.claim <= 1 || job.resumed || !worker.events.has('stalled')) return;
  worker.driver.attempts.list(job.id).then(
    (history) => {
      const lapsed = lapsedBefore(history?.records ?? [], job.claim);
      if (lapsed !== undefined) worker.events.emit('stalled', { name: job.name, job, lapsed });
    },
    (error: unknown) => {
      worker.logger.warn('the attempt history of a job claimed again could not be read', {
        jobId: job.id,
        ...errorFields(error),
      });
    },
  );
}

/** Reports a claim's lease burials: the event per row, and the job's `onSettled`. */
export function announceBuried(
  worker: Pick<WorkerCore, 'driver' | 'events' | 'registry' | 'hooks'>,
  buried: readonly JobRecord[],
): void {
  for (const row of buried) {
    const state = row.state === 'failed' ? 'failed' : 'dead';
    const error = row.lastError ?? {
      code: 'LEASE_LAPSED',
      message: 'the lease lapsed on the final attempt',
    };
    worker.events.emit(state, { name: row.name, job: row, error });
    announceJobSettled(worker.driver, row.id);
    const definition = worker.registry.get(row.name);
    if (definition !== undefined) worker.hooks.start(definition, { state, error }, row);
  }
}
