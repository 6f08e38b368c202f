import type { ClaimedJob } from '../../contract/records.js';
import { BerthError } from '../../errors/berth-error.js';

export function attemptTimedOut(job: ClaimedJob, timeoutMs: number) {
  return new BerthError({
    code: 'JOB_TIMEOUT',
    detail: `attempt ${job.attempts} of job ${job.name} (${job.id}) ran past its timeout of ${timeoutMs} ms`,
    meta: { jobId: job.id, name: job.name, attempt: job.attempts, timeoutMs },
  });
}

export function attemptAborted(job: ClaimedJob, workerId: string) {
  return new BerthError({
    code: 'JOB_ABORTED',
    detail: `worker ${workerId} no longer holds job ${job.name} (${job.id}): it was cancelled, or its lease lapsed and another worker took it`,
    meta: { jobId: job.id, name: job.name, workerId, claim: job.claim },
  });
}

export function attemptDrained(job: ClaimedJob, workerId: string, graceMs: number) {
  return new BerthError({
    code: 'WORKER_DRAINING',
    detail: `worker ${workerId} stopped and job ${job.name} (${job.id}) did not finish within the ${graceMs} ms grace`,
    meta: { jobId: job.id, name: job.name, workerId, graceMs },
  });
}

export function slotTaken(job: ClaimedJob, workerId: string) {
  return new BerthError({
    code: 'JOB_ABORTED',
    detail: `worker ${workerId} no longer holds the concurrency slot of job ${job.name} (${job.id}): its renewals failed or it stalled until the slot's ttl ran out, and another attempt may hold it`,
    meta: { jobId: job.id, name: job.name, workerId, claim: job.claim },
  });
}
