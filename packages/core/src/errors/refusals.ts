import type { JobState } from '../contract/states.js';
import { BerthError } from './berth-error.js';
import './codes.js';

/**
 * The refusals every driver raises, built here so that each driver gives the same code and the
 * same `meta` for the same situation. Drivers call these; they never build a BerthError by hand.
 */

const show = (value: unknown): string => {
  const text = typeof value === 'string' ? JSON.stringify(value) : String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
};

export function jobInvalid(field: string, reason: string, extra: Record<string, unknown> = {}) {
  return new BerthError({
    code: 'JOB_INVALID',
    cause: `${field} ${reason}`,
    fix: `correct ${field} and send the request again`,
    meta: { field, reason, ...extra },
  });
}

/**
 * `wanted` is the request (or the requeued row) whose key is taken; `existingId` the live job
 * holding it. Takes the request itself so every driver builds the same `meta` from it.
 */
export function jobDuplicate(
  wanted: { name: string; idempotencyKey?: string | undefined; tenantId?: string | undefined },
  existingId: string,
) {
  const idempotencyKey = wanted.idempotencyKey ?? '';
  return new BerthError({
    code: 'JOB_DUPLICATE',
    cause: `a live ${show(wanted.name)} job (${existingId}) already holds idempotency key ${show(idempotencyKey)}`,
    meta: {
      name: wanted.name,
      idempotencyKey,
      existingId,
      ...(wanted.tenantId === undefined ? {} : { tenantId: wanted.tenantId }),
    },
  });
}

export function jobNotFound(id: string) {
  return new BerthError({
    code: 'JOB_NOT_FOUND',
    cause: `the queue holds no job with id ${show(id)}`,
    meta: { jobId: id },
  });
}

/** `state` is the effective state, or `"live"` for a requeue that lost its race. */
export function jobNotRequeueable(id: string, state: JobState | 'live') {
  return new BerthError({
    code: 'JOB_NOT_REQUEUEABLE',
    cause:
      state === 'live'
        ? `job ${id} was requeued by another caller between this requeue's check and its change`
        : `job ${id} is ${state}; only failed, dead or cancelled jobs can be requeued`,
    meta: { jobId: id, state },
  });
}

export function jobNotCancellable(id: string, state: JobState) {
  return new BerthError({
    code: 'JOB_NOT_CANCELLABLE',
    cause: `job ${id} is ${state}; only live jobs can be cancelled`,
    meta: { jobId: id, state },
  });
}

export function jobNotPromotable(id: string, state: JobState) {
  return new BerthError({
    code: 'JOB_NOT_PROMOTABLE',
    cause: `job ${id} is ${state}; only a delayed job whose run time has not come can be promoted`,
    meta: { jobId: id, state },
  });
}

export function jobPageInvalid(reason: 'cursor' | 'limit' | 'both-cursors', value?: unknown) {
  const cause =
    reason === 'cursor'
      ? `the cursor ${show(value)} was not produced by a page of this queue`
      : reason === 'limit'
        ? `limit ${show(value)} is outside 1..500 (MAX_JOB_PAGE)`
        : 'after and before were both given; a page walks one way';
  return new BerthError({
    code: 'JOB_PAGE_INVALID',
    cause,
    meta: reason === 'limit' ? { reason, limit: value, maxPage: 500 } : { reason },
  });
}

export function leaseLost(input: { jobId: string; workerId: string; claim: number }) {
  return new BerthError({
    code: 'LEASE_LOST',
    cause: `worker ${show(input.workerId)} no longer holds claim ${input.claim} of job ${input.jobId}`,
    meta: { jobId: input.jobId, workerId: input.workerId, claim: input.claim },
  });
}

export function stepInvalid(cause: string, meta: Record<string, unknown>) {
  return new BerthError({ code: 'STEP_INVALID', cause, meta });
}

export function configInvalid(option: string, reason: string) {
  return new BerthError({
    code: 'CONFIG_INVALID',
    cause: `${option} ${reason}`,
    fix: `correct ${option}`,
    meta: { option, reason },
  });
}

/**
 * A backend failure. `error` is the backend's own error; it is kept as `original` and never
 * rethrown raw. `driver` names the driver for the message.
 */
export function driverUnavailable(input: {
  driver: string;
  operation: string;
  error?: unknown;
  cause?: string;
  fix?: string;
}) {
  const detail =
    input.cause ??
    (input.error instanceof Error ? input.error.message : String(input.error ?? 'no answer'));
  return new BerthError({
    code: 'DRIVER_UNAVAILABLE',
    cause: `the ${input.driver} driver could not ${input.operation}: ${detail}`,
    ...(input.fix === undefined ? {} : { fix: input.fix }),
    meta: { driver: input.driver, operation: input.operation },
    error: input.error,
  });
}

/** The enqueue-retry loop's second miss: the fix names the migrate command, as the spec asks. */
export function enqueueIndexDisagrees(driver: string, name: string) {
  return driverUnavailable({
    driver,
    operation: 'enqueue',
    cause: `the insert of ${show(name)} met an idempotency conflict twice and no live holder was found either time; the live-key index and the lookup disagree`,
    fix: 'berth migrate   # re-applies the live idempotency index the lookup reads',
  });
}
