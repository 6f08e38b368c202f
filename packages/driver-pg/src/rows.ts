import {
  type EventRecord,
  effectiveState,
  isJobState,
  type JobError,
  type JobRecord,
  type JobState,
  type Json,
  type ListPosition,
  type Mutable,
  type StepRecord,
  type StepStatus,
} from '@berth/core/driver';

/** A job row as `jobColumns` answers it: int8 arrive as strings, JSON as text. */
export interface JobRow {
  readonly seq: string;
  readonly id: string;
  readonly run_id: string;
  readonly name: string;
  readonly queue: string;
  readonly payload: string;
  readonly state: string;
  readonly priority: number;
  readonly attempts: number;
  readonly max_attempts: number;
  readonly run_at: string;
  readonly created_at: string;
  readonly updated_at: string;
  readonly finished_at: string | null;
  readonly claimed_by: string | null;
  readonly claim: string;
  readonly visible_at: string | null;
  readonly last_error: string | null;
  readonly result: string | null;
  readonly progress: string | null;
  readonly idempotency_key: string | null;
  readonly concurrency_key: string | null;
  readonly tenant_id: string | null;
  readonly traceparent: string | null;
  readonly enqueued_by: string | null;
  readonly parent_id: string | null;
  readonly wait_for: string | null;
}

export const int = (value: string | number): number => Number(value);

const json = (text: string): Json => JSON.parse(text) as Json;

/** The stored state, checked: a value outside the eight is a schema fault, not a job. */
export function storedState(row: { readonly state: string }): JobState {
  if (!isJobState(row.state))
    throw new Error(`the jobs table holds an unknown state "${row.state}"`);
  return row.state;
}

/** Optional fields are absent when the column is NULL, never `undefined` or `null`. */
const opt = <K extends string, V>(key: K, value: V | null, map: (v: V) => unknown = (v) => v) =>
  value === null ? {} : { [key]: map(value) };

/**
 * The record as every driver reports it, its state effective at `now`. Built field by field in
 * one order (a claim decodes a thousand of these per call): spreads per optional field cost
 * more than the rest of the decoding together.
 */
export function toJobRecord(row: JobRow, now: number): JobRecord {
  const runAt = int(row.run_at);
  // claim is set in its place among the optional fields, so every record has one key order.
  const record = {
    id: row.id,
    runId: row.run_id,
    name: row.name,
    queue: row.queue,
    payload: json(row.payload),
    state: effectiveState(storedState(row), runAt, now),
    priority: row.priority,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    runAt,
    createdAt: int(row.created_at),
    updatedAt: int(row.updated_at),
  } as Mutable<JobRecord>;
  if (row.finished_at !== null) record.finishedAt = int(row.finished_at);
  if (row.claimed_by !== null) record.claimedBy = row.claimed_by;
  record.claim = int(row.claim);
  if (row.visible_at !== null) record.visibleAt = int(row.visible_at);
  if (row.last_error !== null) record.lastError = json(row.last_error) as unknown as JobError;
  if (row.result !== null) record.result = json(row.result);
  if (row.progress !== null) record.progress = json(row.progress);
  if (row.idempotency_key !== null) record.idempotencyKey = row.idempotency_key;
  if (row.concurrency_key !== null) record.concurrencyKey = row.concurrency_key;
  if (row.tenant_id !== null) record.tenantId = row.tenant_id;
  if (row.traceparent !== null) record.traceparent = row.traceparent;
  if (row.enqueued_by !== null) record.enqueuedBy = row.enqueued_by;
  if (row.parent_id !== null) record.parentId = row.parent_id;
  if (row.wait_for !== null) record.waitFor = row.wait_for;
  return record;
}

export const positionOf = (row: JobRow): ListPosition => ({
  createdAt: int(row.created_at),
  seq: int(row.seq),
});

export interface StepRow {
  readonly run_id: string;
  readonly name: string;
  readonly status: string;
  readonly output: string | null;
  readonly error: string | null;
  readonly attempts: number;
  readonly wake_at: string | null;
  readonly event_name: string | null;
  readonly event_id: string | null;
  readonly started_at: string;
  readonly updated_at: string;
}

export function toStepRecord(row: StepRow): StepRecord {
  return {
    runId: row.run_id,
    name: row.name,
    status: row.status as StepStatus,
    ...opt('output', row.output, json),
    ...opt('error', row.error, (text) => json(text) as unknown as JobError),
    attempts: row.attempts,
    ...opt('wakeAt', row.wake_at, int),
    ...opt('eventName', row.event_name),
    ...opt('eventId', row.event_id),
    startedAt: int(row.started_at),
    updatedAt: int(row.updated_at),
  } as StepRecord;
}

export interface EventRow {
  readonly id: string;
  readonly name: string;
  readonly payload: string;
  readonly published_at: string;
  readonly expires_at: string;
}

export const toEventRecord = (row: EventRow): EventRecord => ({
  id: row.id,
  name: row.name,
  payload: json(row.payload),
  publishedAt: int(row.published_at),
  expiresAt: int(row.expires_at),
});

/** JSON for a `$n::json` parameter: pg would send a JS string raw, not as a JSON string. */
export const jsonParam = (value: Json | undefined): string | null =>
  value === undefined ? null : JSON.stringify(value);
