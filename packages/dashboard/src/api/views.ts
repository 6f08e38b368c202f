import { type JobRecord, LIVE_STATES, REQUEUEABLE_STATES, type StepRecord } from '@berth/core';
import type { JobActions, JobSummary, JobView, StepView } from '../api-types.js';

/** The table shows the start of an error; the job page shows all of it. */
const TABLE_MESSAGE_LENGTH = 160;

const cut = (text: string, length: number): string =>
  text.length > length ? `${text.slice(0, length - 1)}…` : text;

export function toSummary(job: JobRecord): JobSummary {
  return {
    id: job.id,
    name: job.name,
    queue: job.queue,
    state: job.state,
    priority: job.priority,
    attempts: job.attempts,
    maxAttempts: job.maxAttempts,
    runAt: job.runAt,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
    ...(job.finishedAt === undefined ? {} : { finishedAt: job.finishedAt }),
    ...(job.tenantId === undefined ? {} : { tenantId: job.tenantId }),
    ...(job.lastError?.code === undefined ? {} : { errorCode: job.lastError.code }),
    ...(job.lastError === undefined
      ? {}
      : { errorMessage: cut(job.lastError.message, TABLE_MESSAGE_LENGTH) }),
  };
}

export function toJobView(job: JobRecord): JobView {
  const summary = toSummary(job);
  const { errorCode: _code, errorMessage: _message, ...rest } = summary;
  return {
    ...rest,
    runId: job.runId,
    payload: job.payload,
    claim: job.claim,
    ...(job.claimedBy === undefined ? {} : { claimedBy: job.claimedBy }),
    ...(job.visibleAt === undefined ? {} : { visibleAt: job.visibleAt }),
    ...(job.lastError === undefined ? {} : { lastError: job.lastError }),
    ...(job.result === undefined ? {} : { result: job.result }),
    ...(job.progress === undefined ? {} : { progress: job.progress }),
    ...(job.idempotencyKey === undefined ? {} : { idempotencyKey: job.idempotencyKey }),
    ...(job.concurrencyKey === undefined ? {} : { concurrencyKey: job.concurrencyKey }),
    ...(job.traceparent === undefined ? {} : { traceparent: job.traceparent }),
    ...(job.enqueuedBy === undefined ? {} : { enqueuedBy: job.enqueuedBy }),
    ...(job.parentId === undefined ? {} : { parentId: job.parentId }),
    ...(job.waitFor === undefined ? {} : { waitFor: job.waitFor }),
  };
}

export function toStepView(step: StepRecord): StepView {
  return {
    name: step.name,
    status: step.status,
    attempts: step.attempts,
    startedAt: step.startedAt,
    updatedAt: step.updatedAt,
    ...(step.output === undefined ? {} : { output: step.output }),
    ...(step.error === undefined ? {} : { error: step.error }),
    ...(step.wakeAt === undefined ? {} : { wakeAt: step.wakeAt }),
    ...(step.eventName === undefined ? {} : { eventName: step.eventName }),
    ...(step.eventId === undefined ? {} : { eventId: step.eventId }),
  };
}

/** What the contract lets an operator do to a job in its state. */
export function actionsFor(job: JobRecord, steps: number, readOnly: boolean): JobActions {
  if (readOnly) {
    return { retry: false, retryFromStep: false, cancel: false, promote: false, delete: false };
  }
  const requeueable = REQUEUEABLE_STATES.has(job.state);
  return {
    retry: requeueable,
    retryFromStep: requeueable && steps > 0,
    cancel: LIVE_STATES.has(job.state),
    promote: job.state === 'delayed',
    delete: job.state !== 'running',
  };
}
