import type { JobState } from '../contract/states.js';
import { BerthError } from './berth-error.js';
import './codes.js';
import type { BerthErrorMetas } from './metas.js';
import { describeReceived } from './received.js';

/**
 * The refusals every driver raises, built here so that each driver gives the same code and the
 * same `meta` for the same situation. Drivers call these; they never build a BerthError by hand.
 */

const show = (value: unknown): string => {
  const text = typeof value === 'string' ? JSON.stringify(value) : describeReceived(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
};

type JobInvalidExtra = Omit<BerthErrorMetas['JOB_INVALID'], 'field' | 'reason'>;

export function jobInvalid(field: string, reason: string, extra: JobInvalidExtra = {}) {
  return new BerthError({
    code: 'JOB_INVALID',
    detail: `${field} ${reason}`,
    fix: `correct ${field} and send the request again`,
    meta: { field, reason, ...extra },
  });
}

/**
 * A caller-allocated id already held by a row of another tenant (or of no tenant when the
 * request names one, or the reverse). Says nothing of the holder: not its run, state or tenant.
 */
export function idTaken() {
  return new BerthError({
    code: 'JOB_INVALID',
    detail: 'the id is taken',
    fix: 'allocate a fresh id (crypto.randomUUID()) for this job, or leave id out and use the one enqueue answers',
    meta: { field: 'id', reason: 'is taken' },
  });
}

/** Whether a row's tenant is the request's: both none, or the same one. */
export const sameTenant = (
  rowTenant: string | null | undefined,
  requestTenant: string | null | undefined,
): boolean => (rowTenant ?? undefined) === (requestTenant ?? undefined);

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
    detail: `a live ${show(wanted.name)} job (${existingId}) already holds idempotency key ${show(idempotencyKey)}`,
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
    detail: `the queue holds no job with id ${show(id)}`,
    meta: { jobId: id },
  });
}

/** `state` is the effective state, or `"live"` for a requeue that lost its race. */
export function jobNotRequeueable(id: string, state: JobState | 'live') {
  return new BerthError({
    code: 'JOB_NOT_REQUEUEABLE',
    detail:
      state === 'live'
        ? `job ${id} was requeued by another caller between this requeue's check and its change`
        : `job ${id} is ${state}; only failed, dead or cancelled jobs can be requeued`,
    meta: { jobId: id, state },
  });
}

export function jobNotCancellable(id: string, state: JobState) {
  return new BerthError({
    code: 'JOB_NOT_CANCELLABLE',
    detail: `job ${id} is ${state}; only live jobs can be cancelled`,
    meta: { jobId: id, state },
  });
}

export function jobNotPromotable(id: string, state: JobState) {
  return new BerthError({
    code: 'JOB_NOT_PROMOTABLE',
    detail: `job ${id} is ${state}; only a delayed job whose run time has not come can be promoted`,
    meta: { jobId: id, state },
  });
}

/** `delete` of a job a worker holds: nothing changed. */
export function jobNotDeletable(id: string, state: JobState) {
  return new BerthError({
    code: 'JOB_NOT_DELETABLE',
    detail: `job ${id} is ${state}; a running job cannot be deleted while a worker holds it`,
    meta: { jobId: id, state },
  });
}

/** The largest page of the call refused, by the constant that names it. */
export interface PageBound {
  readonly max: number;
  readonly constant: string;
}

const JOB_PAGE_BOUND: PageBound = { max: 500, constant: 'MAX_JOB_PAGE' };

export function jobPageInvalid(
  reason: 'cursor' | 'limit' | 'both-cursors',
  value?: unknown,
  bound: PageBound = JOB_PAGE_BOUND,
) {
  const detail =
    reason === 'cursor'
      ? `the cursor ${show(value)} was not produced by a page of this queue`
      : reason === 'limit'
        ? `limit ${show(value)} is outside 1..${bound.max} (${bound.constant})`
        : 'after and before were both given; a page walks one way';
  return new BerthError({
    code: 'JOB_PAGE_INVALID',
    detail,
    // A number is kept as given; anything else is described, so meta stays JSON.
    meta:
      reason !== 'limit'
        ? { reason }
        : typeof value === 'number' && Number.isFinite(value)
          ? { reason, limit: value, maxPage: bound.max }
          : { reason, received: describeReceived(value), maxPage: bound.max },
  });
}

export function leaseLost(input: { jobId: string; workerId: string; claim: number }) {
  return new BerthError({
    code: 'LEASE_LOST',
    detail: `worker ${show(input.workerId)} no longer holds claim ${input.claim} of job ${input.jobId}`,
    meta: { jobId: input.jobId, workerId: input.workerId, claim: input.claim },
  });
}

export function stepInvalid(detail: string, meta: BerthErrorMetas['STEP_INVALID']) {
  return new BerthError({ code: 'STEP_INVALID', detail, meta });
}

export interface ConfigInvalidInput {
  /** The option's path as the caller wrote it: `concurrency`, `schedules[0].cron`. */
  readonly option: string;
  /** What is wrong with the value given, completing "<option> ...". */
  readonly reason: string;
  /** What values the option takes, completing "<option> ..."; default the reason. */
  readonly allowed?: string;
  /** A valid call showing the option with a value: `createWorker({ ..., concurrency: 10 })`. */
  readonly example: string;
  /** What reading the option threw (a getter, a Proxy's trap), when that is why. */
  readonly cause?: unknown;
}

/** An option out of range: the fix says what the option takes and shows a valid call. */
export function configInvalid(input: ConfigInvalidInput) {
  const { option, reason, allowed = reason, example } = input;
  return new BerthError({
    code: 'CONFIG_INVALID',
    detail: `${option} ${reason}`,
    fix: `${option} ${allowed}; e.g. ${example}`,
    meta: { option, reason },
    ...(input.cause === undefined ? {} : { cause: input.cause }),
  });
}

/**
 * A backend failure. `cause` is the backend's own error: it becomes the error's standard
 * `cause` and is never rethrown raw. `detail` overrides the sentence made from it.
 */
export function driverUnavailable(input: {
  driver: string;
  operation: string;
  cause?: unknown;
  detail?: string;
  fix?: string;
}) {
  const what = input.detail ?? describeFailure(input.cause);
  const errorCode = backendCode(input.cause);
  return new BerthError({
    code: 'DRIVER_UNAVAILABLE',
    detail: `the ${input.driver} driver could not ${input.operation}: ${what}`,
    ...(input.fix === undefined ? {} : { fix: input.fix }),
    meta: {
      driver: input.driver,
      operation: input.operation,
      ...(errorCode === undefined ? {} : { errorCode }),
    },
    ...(input.cause === undefined ? {} : { cause: input.cause }),
  });
}

/**
 * What a backend error says happened. A connection refused on every address of a host comes as
 * an AggregateError with an empty message: its first error, or its code, says why. A client that
 * wraps the socket's error ("connection refused") gets the socket's code added.
 */
function describeFailure(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause ?? 'no answer');
  const code = backendCode(cause);
  const first = cause instanceof AggregateError ? cause.errors[0] : undefined;
  const message =
    cause.message !== ''
      ? cause.message
      : first instanceof Error && first.message !== ''
        ? first.message
        : (code ?? cause.name);
  return code === undefined || message.includes(code) ? message : `${message} (${code})`;
}

/**
 * A backend error's own code (`ECONNREFUSED`, a SQLSTATE), when it has a string one; else the
 * code of the error it wraps, so a socket's code under a client's error still shows.
 */
function backendCode(error: unknown, depth = 0): string | undefined {
  if (error === null || typeof error !== 'object' || depth > 4) return undefined;
  if ('code' in error && typeof error.code === 'string') return error.code;
  return 'cause' in error ? backendCode(error.cause, depth + 1) : undefined;
}

/** The enqueue-retry loop's second miss: the fix names the migrate call, as the spec asks. */
export function enqueueIndexDisagrees(driver: string, name: string) {
  return driverUnavailable({
    driver,
    operation: 'enqueue',
    detail: `the insert of ${show(name)} met an idempotency conflict twice and no live holder was found either time; the live-key index and the lookup disagree`,
    fix: 'berth migrate --url <url> (or await driver.migrate()) re-applies the live idempotency index the lookup reads; a driver with nothing to migrate has a bug here: report it',
  });
}

/**
 * The backend is reachable but does not hold this driver's schema (`version` 0), holds an older
 * one, or (`version` absent) a statement met a table or schema that does not exist — `cause` is
 * then the backend's error.
 */
export function driverNotMigrated(input: {
  driver: string;
  schema: string;
  version?: number;
  required: number;
  cause?: unknown;
}) {
  const found =
    input.version === undefined
      ? `lacks part of schema ${show(input.schema)} this driver needs (${input.cause instanceof Error ? input.cause.message : 'a table is missing'})`
      : input.version === 0
        ? `holds no ${input.driver} schema ${show(input.schema)}`
        : `holds schema ${show(input.schema)} at version ${input.version}, older than the ${input.required} this driver needs`;
  return new BerthError({
    code: 'DRIVER_NOT_MIGRATED',
    detail: `the ${input.driver} backend ${found}`,
    fix: `migrate once, at deploy or boot, before starting workers or schedulers: berth migrate --url <url> --schema ${input.schema}, or await driver.migrate(); it brings schema ${show(input.schema)} to version ${input.required}`,
    meta: {
      driver: input.driver,
      schema: input.schema,
      ...(input.version === undefined ? {} : { version: input.version }),
      required: input.required,
    },
    ...(input.cause === undefined ? {} : { cause: input.cause }),
  });
}

/**
 * Every call on a closed driver (and one racing its close) answers this, with one text on every
 * driver. `cause` is the backend's error when a call in flight failed because of the close.
 */
export function driverClosed(input: { driver: string; operation: string; cause?: unknown }) {
  return new BerthError({
    code: 'DRIVER_CLOSED',
    detail: `the driver was closed, so it cannot ${input.operation}`,
    meta: { driver: input.driver, operation: input.operation },
    ...(input.cause === undefined ? {} : { cause: input.cause }),
  });
}
