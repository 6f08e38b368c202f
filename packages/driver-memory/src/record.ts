import {
  type ClaimedJob,
  effectiveState,
  type JobError,
  type JobRecord,
  type JobState,
  type Json,
} from '@berth/core';
import type { Row } from './store.js';

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** The state a read reports for the row at `now`. */
export const stateAt = (row: Row, now: number): JobState =>
  effectiveState(row.state, row.runAt, now);

/** A deep copy: nothing handed out may alias the store, nothing taken in may alias the caller. */
export const copyJson = <T extends Json>(value: T): T => structuredClone(value);

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
  if (row.waitFor !== undefined) record.waitFor = row.waitFor;
  return record;
}

/** The record of a row a claim just took: `running`, holding its lease, with `resumed`. */
export function toClaimed(row: Row, now: number, resumed: boolean): ClaimedJob {
  const record = toRecord(row, now) as Writable<ClaimedJob>;
  record.resumed = resumed;
  return record;
}
