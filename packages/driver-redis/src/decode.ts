import {
  type ClaimedJob,
  effectiveState,
  isJobState,
  type JobError,
  type JobRecord,
  type Json,
  type ListPosition,
  type Mutable,
} from '@berth/core/driver';
import { CLAIM_REPLY_FIELDS, type CLAIM_REPLY_OPTIONAL } from './lua/claim.js';

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

/**
 * What a job hash leaves out because a fresh row implies it (the scripts' withDefaults): its id
 * is its key's, attempts and claim start at 0, updatedAt at createdAt.
 */
export function withStoredDefaults(fields: Map<string, string>, id: string): void {
  fields.set('id', id);
  if (!fields.has('attempts')) fields.set('attempts', '0');
  if (!fields.has('claim')) fields.set('claim', '0');
  const createdAt = fields.get('createdAt');
  if (!fields.has('updatedAt') && createdAt !== undefined) fields.set('updatedAt', createdAt);
}

const parseJson = (text: string): Json => JSON.parse(text) as Json;

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
  // A settled row may keep the claimedBy and visibleAt of its last run: they hold only while running.
  const running = stored === 'running';
  if (running && fields.has('claimedBy')) job.claimedBy = text('claimedBy');
  job.claim = int('claim');
  if (running && fields.has('visibleAt')) job.visibleAt = int('visibleAt');
  if (fields.has('lastError')) job.lastError = JSON.parse(text('lastError')) as JobError;
  if (fields.has('result')) job.result = parseJson(text('result'));
  if (fields.has('progress')) job.progress = parseJson(text('progress'));
  for (const field of [
    'idempotencyKey',
    'concurrencyKey',
    'tenantId',
    'traceparent',
    'enqueuedBy',
    'parentId',
    'waitFor',
  ] as const) {
    const value = fields.get(field);
    if (value !== undefined) job[field] = value;
  }
  return job;
}

const OPTIONAL_TEXTS: ReadonlySet<string> = new Set([
  'idempotencyKey',
  'concurrencyKey',
  'tenantId',
  'traceparent',
  'enqueuedBy',
  'parentId',
] satisfies (typeof CLAIM_REPLY_OPTIONAL)[number][]);

/**
 * One row of the claim script's answer, NUL-separated: CLAIM_REPLY_FIELDS in order, resumed
 * (1/0), then name and value of each optional field the row holds. What the claim itself set (state, claimedBy,
 * visibleAt, updatedAt) comes from the request, not the reply.
 */
export function claimedOf(
  value: unknown,
  workerId: string,
  visibleAt: number,
  now: number,
): ClaimedJob {
  const row = asString(value, 'claim').split('\0');
  const text = (index: number): string => {
    const part = row[index];
    if (part === undefined) throw new ReplyShapeError(`claim: a row lacks part ${index}`);
    return part;
  };
  // Built in the contract's field order, as decodeJob builds every other record.
  const job: Mutable<ClaimedJob> = {
    id: text(0),
    runId: text(1),
    name: text(2),
    queue: text(3),
    payload: parseJson(text(4)),
    state: 'running',
    priority: Number(text(5)),
    attempts: Number(text(6)),
    maxAttempts: Number(text(7)),
    runAt: Number(text(8)),
    createdAt: Number(text(9)),
    updatedAt: now,
    claimedBy: workerId,
    claim: Number(text(10)),
    visibleAt,
  } as Mutable<ClaimedJob>;
  const resumed = row[CLAIM_REPLY_FIELDS.length] === '1';
  for (let index = CLAIM_REPLY_FIELDS.length + 1; index + 1 < row.length; index += 2) {
    const field = text(index);
    const found = text(index + 1);
    if (field === 'lastError') job.lastError = JSON.parse(found) as JobError;
    else if (field === 'result') job.result = parseJson(found);
    else if (field === 'progress') job.progress = parseJson(found);
    else if (OPTIONAL_TEXTS.has(field)) job[field as 'tenantId'] = found;
  }
  job.resumed = resumed;
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
