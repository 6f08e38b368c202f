import {
  type ClaimedJob,
  effectiveState,
  type JobError,
  type JobRecord,
  type JobState,
  type Json,
} from '@berth/core/driver';
import type { Row } from './store.js';

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** The state a read reports for the row at `now`. */
export const stateAt = (row: Row, now: number): JobState =>
  effectiveState(row.state, row.runAt, now);

/**
 * A deep copy: nothing handed out may alias the store, nothing taken in may alias the caller.
 * Every stored value passed the JSON screen (plain objects, arrays, primitives), so a plain walk
 * copies it; structuredClone costs ~20× more on the small payloads a claim hands out.
 */
export const copyJson = <T extends Json>(value: T): T =>
  (value === null || typeof value !== 'object' ? value : copyValue(value)) as T;

function copyValue(value: Json): Json {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const out: Json[] = [];
    for (let index = 0; index < value.length; index += 1) out.push(copyValue(value[index] as Json));
    return out;
  }
  const object = value as { readonly [key: string]: Json };
  const out: Record<string, Json> = {};
  for (const key of Object.keys(object)) {
    const item = copyValue(object[key] as Json);
    // Assigning "__proto__" would set the copy's prototype; the screen kept it as data.
    if (key === '__proto__') {
      Object.defineProperty(out, key, {
        value: item,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else out[key] = item;
  }
  return out;
}

/** The one place a row's insertion order and list position come from. */
export const positionOf = (row: Row): { createdAt: number; seq: number } => ({
  createdAt: row.createdAt,
  seq: row.seq,
});

export function copyError(error: JobError): JobError {
  const copy = {} as Writable<JobError>;
  if (error.code !== undefined) copy.code = error.code;
  copy.message = error.message;
  if (error.stack !== undefined) copy.stack = error.stack;
  return copy;
}

/**
 * The record a read reports: a fresh object, effective state, optional fields absent when unset.
 * Set field by field in the contract's order: an object made of conditional spreads is slow to
 * build and many times slower to spread again.
 */
export function toRecord(row: Row, now: number): JobRecord {
  // `claim` is set below, after `claimedBy`, to keep the contract's field order.
  const record = {
    id: row.id,
    runId: row.runId,
    name: row.name,
    queue: row.queue,
    payload: copyJson(row.payload),
    state: stateAt(row, now),
    priority: row.priority,
    attempts: row.attempts,
    maxAttempts: row.maxAttempts,
    runAt: row.runAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  } as Writable<JobRecord>;
  if (row.finishedAt !== undefined) record.finishedAt = row.finishedAt;
  if (row.claimedBy !== undefined) record.claimedBy = row.claimedBy;
  record.claim = row.claim;
  if (row.visibleAt !== undefined) record.visibleAt = row.visibleAt;
  if (row.lastError !== undefined) record.lastError = copyError(row.lastError);
  if (row.result !== undefined) record.result = copyJson(row.result);
  if (row.progress !== undefined) record.progress = copyJson(row.progress);
  if (row.idempotencyKey !== undefined) record.idempotencyKey = row.idempotencyKey;
  if (row.concurrencyKey !== undefined) record.concurrencyKey = row.concurrencyKey;
  if (row.tenantId !== undefined) record.tenantId = row.tenantId;
  if (row.traceparent !== undefined) record.traceparent = row.traceparent;
  if (row.enqueuedBy !== undefined) record.enqueuedBy = row.enqueuedBy;
  if (row.parentId !== undefined) record.parentId = row.parentId;
  if (row.waitFor !== undefined) record.waitFor = row.waitFor;
  return record;
}

/** Whether the row holds none of the fields a record lists after `visibleAt`. */
const plainTail = (row: Row): boolean =>
  row.lastError === undefined &&
  row.result === undefined &&
  row.progress === undefined &&
  row.idempotencyKey === undefined &&
  row.concurrencyKey === undefined &&
  row.tenantId === undefined &&
  row.traceparent === undefined &&
  row.enqueuedBy === undefined &&
  row.parentId === undefined &&
  row.waitFor === undefined;

/**
 * The record of a row a claim just took: `running`, holding its lease, with `resumed`. The
 * common row (no error, result, progress, key, tenant, trace or wait) is built as one literal in
 * the contract's order, so the claim's hottest object grows no property store; any other row is
 * `toRecord`'s with `resumed` after it.
 */
export function toClaimed(row: Row, now: number, resumed: boolean): ClaimedJob {
  const { claimedBy, visibleAt } = row;
  if (
    row.finishedAt === undefined &&
    claimedBy !== undefined &&
    visibleAt !== undefined &&
    plainTail(row)
  ) {
    return {
      id: row.id,
      runId: row.runId,
      name: row.name,
      queue: row.queue,
      payload: copyJson(row.payload),
      // A claim just stored it: nothing else can be effective.
      state: 'running',
      priority: row.priority,
      attempts: row.attempts,
      maxAttempts: row.maxAttempts,
      runAt: row.runAt,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      claimedBy,
      claim: row.claim,
      visibleAt,
      resumed,
    };
  }
  const record = toRecord(row, now) as Writable<ClaimedJob>;
  record.resumed = resumed;
  return record;
}
