import {
  type ClaimedJob,
  effectiveState,
  isJobState,
  type JobError,
  type JobRecord,
  type Json,
  type ListPosition,
} from '@berth/core';
import { CLAIM_REPLY_FIELDS } from './lua/claim.js';

/** Script replies are checked, not cast: a reply of the wrong shape is a driver fault. */
export class ReplyShapeError extends Error {
  override readonly name = 'ReplyShapeError';
}

export function asArray(value: unknown, what: string): readonly unknown[] {
  if (!Array.isArray(value)) throw new ReplyShapeError(`${what}: expected an array reply`);
  return value;
}

export function asString(value: unknown, what: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  throw new ReplyShapeError(`${what}: expected a string reply`);
}

/** `[field, value, field, value...]` as a map. */
export function fieldsOf(value: unknown, what: string): ReadonlyMap<string, string> {
  const raw = asArray(value, what);
  const fields = new Map<string, string>();
  for (let index = 0; index + 1 < raw.length; index += 2) {
    fields.set(asString(raw[index], what), asString(raw[index + 1], what));
  }
  return fields;
}

const parseJson = (text: string): Json => JSON.parse(text) as Json;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** A job hash's fields as the record every driver answers, with its effective state as of `now`. */
export function decodeJob(fields: ReadonlyMap<string, string>, now: number): JobRecord {
  const text = (field: string): string => {
    const value = fields.get(field);
    if (value === undefined) throw new ReplyShapeError(`job hash lacks ${field}`);
    return value;
  };
  const int = (field: string): number => Number(text(field));
  const stored = text('state');
  if (!isJobState(stored)) throw new ReplyShapeError(`job hash holds state ${stored}`);
  const runAt = int('runAt');
  // Built in the contract's field order, so a record reads the same whichever driver made it.
  const job: Mutable<JobRecord> = {
    id: text('id'),
    runId: text('runId'),
    name: text('name'),
    queue: text('queue'),
    payload: parseJson(text('payload')),
    state: effectiveState(stored, runAt, now),
    priority: int('priority'),
    attempts: int('attempts'),
    maxAttempts: int('maxAttempts'),
    runAt,
    createdAt: int('createdAt'),
    updatedAt: int('updatedAt'),
  } as Mutable<JobRecord>;
  if (fields.has('finishedAt')) job.finishedAt = int('finishedAt');
  if (fields.has('claimedBy')) job.claimedBy = text('claimedBy');
  job.claim = int('claim');
  if (fields.has('visibleAt')) job.visibleAt = int('visibleAt');
  if (fields.has('lastError')) job.lastError = JSON.parse(text('lastError')) as JobError;
  if (fields.has('result')) job.result = parseJson(text('result'));
  if (fields.has('progress')) job.progress = parseJson(text('progress'));
  for (const field of [
    'idempotencyKey',
    'concurrencyKey',
    'tenantId',
    'traceparent',
    'enqueuedBy',
    'waitFor',
  ] as const) {
    const value = fields.get(field);
    if (value !== undefined) job[field] = value;
  }
  return job;
}

type ReplyField = (typeof CLAIM_REPLY_FIELDS)[number];

/** Where each field sits in a claim reply row; resumed follows the last. */
const AT = Object.fromEntries(CLAIM_REPLY_FIELDS.map((field, index) => [field, index])) as Record<
  ReplyField,
  number
>;

const CLAIM_TEXTS = [
  'idempotencyKey',
  'concurrencyKey',
  'tenantId',
  'traceparent',
  'enqueuedBy',
] as const satisfies readonly ReplyField[];

/**
 * One row of the claim script's answer: CLAIM_REPLY_FIELDS in order, then resumed (1/0). What the
 * claim itself set (state, claimedBy, visibleAt, updatedAt) comes from the request, not the reply.
 */
export function claimedOf(
  value: unknown,
  workerId: string,
  visibleAt: number,
  now: number,
): ClaimedJob {
  const row = asArray(value, 'claim');
  const text = (field: ReplyField): string => asString(row[AT[field]], 'claim');
  // A field the row lacks arrives as null (the script's false).
  const maybe = (field: ReplyField): string | undefined => {
    const found = row[AT[field]];
    return found === null || found === undefined ? undefined : asString(found, 'claim');
  };
  // Built in the contract's field order, as decodeJob builds every other record.
  const job: Mutable<ClaimedJob> = {
    id: text('id'),
    runId: text('runId'),
    name: text('name'),
    queue: text('queue'),
    payload: parseJson(text('payload')),
    state: 'running',
    priority: Number(text('priority')),
    attempts: Number(text('attempts')),
    maxAttempts: Number(text('maxAttempts')),
    runAt: Number(text('runAt')),
    createdAt: Number(text('createdAt')),
    updatedAt: now,
    claimedBy: workerId,
    claim: Number(text('claim')),
    visibleAt,
  } as Mutable<ClaimedJob>;
  const lastError = maybe('lastError');
  if (lastError !== undefined) job.lastError = JSON.parse(lastError) as JobError;
  const result = maybe('result');
  if (result !== undefined) job.result = parseJson(result);
  const progress = maybe('progress');
  if (progress !== undefined) job.progress = parseJson(progress);
  for (const field of CLAIM_TEXTS) {
    const found = maybe(field);
    if (found !== undefined) job[field] = found;
  }
  job.resumed = row[CLAIM_REPLY_FIELDS.length] === 1;
  return job;
}

/** A flat job reply (as scripts return it) decoded as of `now`. */
export const jobOf = (value: unknown, now: number): JobRecord =>
  decodeJob(fieldsOf(value, 'job'), now);

/** A flat job reply with its list position (createdAt, seq). */
export function positionedOf(
  value: unknown,
  now: number,
): { job: JobRecord; position: ListPosition } {
  const fields = fieldsOf(value, 'list row');
  const job = decodeJob(fields, now);
  return { job, position: { createdAt: job.createdAt, seq: Number(fields.get('seq')) } };
}
