import {
  type EnqueueResult,
  type InsertOutcome,
  idTaken,
  isJobState,
  jobDuplicate,
  type KeyedEnqueue,
  LIVE_STATES,
  type ScreenedEnqueue,
  timeOrderedUuid,
} from '@berth/core/driver';
import type { RedisContext } from './context.js';
import { asArray, asString, ReplyShapeError } from './decode.js';
import { ENQUEUE_FIELDS } from './lua/enqueue.js';
import { ENQUEUE_LUA } from './lua/generated.js';
import { defineScript } from './scripts.js';

const ENQUEUE = defineScript('enqueue', ENQUEUE_LUA);

type Field = (typeof ENQUEUE_FIELDS)[number];

/**
 * One request's ENQUEUE_FIELDS, in order ('' for absent); newId is the id a new row gets,
 * allocated at `now`, the instant the script is sent with.
 */
export function argsOf(request: ScreenedEnqueue, now: number): string[] {
  const values: Record<Field, string | number | undefined> = {
    callerId: request.id,
    newId: request.id ?? timeOrderedUuid(now),
    runId: timeOrderedUuid(now),
    name: request.name,
    queue: request.queue,
    payload: JSON.stringify(request.payload),
    runAt: request.runAt,
    priority: request.priority,
    maxAttempts: request.maxAttempts,
    idempotencyKey: request.idempotencyKey,
    onConflict: request.onConflict,
    concurrencyKey: request.concurrencyKey,
    tenantId: request.tenantId,
    traceparent: request.traceparent,
    enqueuedBy: request.enqueuedBy,
    parentId: request.parentId,
  };
  return ENQUEUE_FIELDS.map((field) => {
    const value = values[field];
    return value === undefined ? '' : String(value);
  });
}

const NEW_ID_AT = ENQUEUE_FIELDS.indexOf('newId');
const RUN_ID_AT = ENQUEUE_FIELDS.indexOf('runId');

type Outcome =
  | { readonly kind: 'ok'; readonly results: readonly EnqueueResult[] }
  | { readonly kind: 'conflict'; readonly holderId: string }
  | { readonly kind: 'duplicate'; readonly index: number; readonly holderId: string }
  | { readonly kind: 'taken' };

/**
 * The script's answer. `sent` holds each request's argsOf: a new row is answered 0, and is the
 * row those arguments made (their newId and runId).
 */
export function outcomeOf(reply: unknown, sent: readonly (readonly string[])[]): Outcome {
  const [kind, first, second] = asArray(reply, 'enqueue');
  if (kind === 'taken') return { kind };
  if (kind === 'conflict') return { kind, holderId: asString(first, 'enqueue') };
  if (kind === 'duplicate') {
    return { kind, index: Number(first), holderId: asString(second, 'enqueue') };
  }
  if (kind !== 'ok') throw new ReplyShapeError(`enqueue answered ${String(kind)}`);
  const results = asArray(first, 'enqueue').map((row, index): EnqueueResult => {
    if (row === 0) {
      const id = sent[index]?.[NEW_ID_AT];
      const runId = sent[index]?.[RUN_ID_AT];
      if (id === undefined || runId === undefined) {
        throw new ReplyShapeError('enqueue answered a row nobody sent');
      }
      return { id, runId, deduped: false };
    }
    const [id, runId] = asArray(row, 'enqueue');
    return { id: asString(id, 'enqueue'), runId: asString(runId, 'enqueue'), deduped: true };
  });
  return { kind, results };
}

async function insert(
  context: RedisContext,
  mode: 'one' | 'many',
  requests: readonly ScreenedEnqueue[],
): Promise<Outcome> {
  const now = context.clock.now();
  const sent = requests.map((request) => argsOf(request, now));
  const args: string[] = [mode, String(requests.length)];
  for (const fields of sent) for (const field of fields) args.push(field);
  return outcomeOf(await context.run(ENQUEUE, now, args), sent);
}

/**
 * The lookup step: the refused insert's holder, when it is still the live holder of the
 * request's key. The insert script always names its holder, so `holderId` is always given.
 */
export async function liveHolder(
  context: RedisContext,
  request: KeyedEnqueue,
  holderId: string | undefined,
): Promise<EnqueueResult | undefined> {
  if (holderId === undefined) return undefined;
  const [state, runId, name, tenantId, key] = await context.redis.hmget(
    context.keys.job(holderId),
    'state',
    'runId',
    'name',
    'tenantId',
    'idempotencyKey',
  );
  const holds =
    isJobState(state) &&
    LIVE_STATES.has(state) &&
    name === request.name &&
    (tenantId ?? undefined) === request.tenantId &&
    key === request.idempotencyKey;
  return holds && typeof runId === 'string' ? { id: holderId, runId, deduped: true } : undefined;
}

/** The insert step: the script in mode `one` (a key held answers the holder, writing nothing). */
export async function insertOne(
  context: RedisContext,
  request: ScreenedEnqueue,
): Promise<InsertOutcome> {
  const outcome = await insert(context, 'one', [request]);
  if (outcome.kind === 'taken') return { kind: 'id-taken' };
  if (outcome.kind !== 'ok') return { kind: 'key-held', holderId: outcome.holderId };
  const [result] = outcome.results;
  if (result === undefined) throw new ReplyShapeError('enqueue answered no row');
  return { kind: 'landed', result };
}

/** The whole batch in one script: every item lands, or (a JOB_DUPLICATE) none does. */
export async function enqueueMany(
  context: RedisContext,
  requests: readonly ScreenedEnqueue[],
): Promise<readonly EnqueueResult[]> {
  const outcome = await insert(context, 'many', requests);
  if (outcome.kind === 'ok') return outcome.results;
  if (outcome.kind === 'taken') throw idTaken();
  const request = requests[outcome.kind === 'duplicate' ? outcome.index : 0];
  if (request === undefined) throw new ReplyShapeError('enqueue named no request');
  throw jobDuplicate(request, outcome.holderId);
}
