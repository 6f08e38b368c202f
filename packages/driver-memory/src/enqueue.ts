import {
  type EnqueueResult,
  type InsertOutcome,
  idTaken,
  jobDuplicate,
  type KeyedEnqueue,
  LIVE_STATES,
  type ScreenedEnqueue,
  sameTenant,
  timeOrderedUuid,
} from '@berth/core/driver';
import { insertRow, namespaceKey, type Row, type Store } from './store.js';
import { notify } from './wake.js';

const answer = (row: Row, deduped: boolean): EnqueueResult => ({
  id: row.id,
  runId: row.runId,
  deduped,
});

const keyOf = (request: ScreenedEnqueue): string | undefined =>
  request.idempotencyKey === undefined
    ? undefined
    : namespaceKey(request.name, request.tenantId, request.idempotencyKey);

function newRow(store: Store, request: ScreenedEnqueue, now: number): Row {
  const runAt = request.runAt ?? now;
  const row: Row = {
    id: request.id ?? timeOrderedUuid(now),
    runId: timeOrderedUuid(now),
    seq: store.nextSeq(),
    name: request.name,
    queue: request.queue,
    payload: request.payload,
    state: runAt > now ? 'delayed' : 'ready',
    priority: request.priority,
    attempts: 0,
    maxAttempts: request.maxAttempts,
    runAt,
    createdAt: now,
    updatedAt: now,
    finishedAt: undefined,
    claimedBy: undefined,
    claimedAt: undefined,
    claim: 0,
    visibleAt: undefined,
    lastError: undefined,
    result: undefined,
    progress: undefined,
    idempotencyKey: request.idempotencyKey,
    concurrencyKey: request.concurrencyKey,
    tenantId: request.tenantId,
    traceparent: request.traceparent,
    enqueuedBy: request.enqueuedBy,
    parentId: request.parentId,
    waitFor: undefined,
    history: undefined,
    home: undefined,
    at: -1,
    ageAt: -1,
    counted: undefined,
    lane: undefined,
    waiting: undefined,
  };
  return row;
}

/**
 * The insert step, as a unique index would answer it: the caller's id first (global), then the
 * live-key index. One synchronous change.
 */
export function insert(store: Store, request: ScreenedEnqueue): InsertOutcome {
  if (request.id !== undefined) {
    const existing = store.rows.get(request.id);
    if (existing !== undefined) {
      return sameTenant(existing.tenantId, request.tenantId)
        ? { kind: 'landed', result: answer(existing, true) }
        : { kind: 'id-taken' };
    }
  }
  const key = keyOf(request);
  const holderId = key === undefined ? undefined : store.liveKeys.get(key);
  if (holderId !== undefined) return { kind: 'key-held', holderId };
  const row = newRow(store, request, store.clock.now());
  insertRow(store, row);
  notify(store, [row.queue]);
  return { kind: 'landed', result: answer(row, false) };
}

/**
 * The lookup step: the row the refused insert met, if it still holds the key. One that settled
 * in between (even if another row took the key since) is a miss, and the insert is tried again.
 */
export function liveHolder(
  store: Store,
  request: KeyedEnqueue,
  holderId: string | undefined,
): EnqueueResult | undefined {
  const id = holderId ?? store.liveKeys.get(keyOf(request) ?? '');
  const row = id === undefined ? undefined : store.rows.get(id);
  if (row === undefined || !LIVE_STATES.has(row.state)) return undefined;
  const same =
    row.name === request.name &&
    row.tenantId === request.tenantId &&
    row.idempotencyKey === request.idempotencyKey;
  return same ? answer(row, true) : undefined;
}

function refuseOrDedupe(request: ScreenedEnqueue, holder: Row): EnqueueResult {
  if (request.onConflict === 'error' && request.idempotencyKey !== undefined) {
    throw jobDuplicate(request, holder.id);
  }
  return answer(holder, true);
}

/** The job a caller id already made answers it, unless another tenant's row holds the id. */
function answerSameId(request: ScreenedEnqueue, row: Row): EnqueueResult {
  if (!sameTenant(row.tenantId, request.tenantId)) throw idTaken();
  return answer(row, true);
}

/**
 * The batch in ONE synchronous change: insert and lookup cannot be split, so there is no race
 * to retry and the seam is not called. Every refusal is raised before any row lands.
 */
export function enqueueMany(
  store: Store,
  requests: readonly ScreenedEnqueue[],
): readonly EnqueueResult[] {
  const now = store.clock.now();
  const byId = new Map<string, Row>();
  const byKey = new Map<string, Row>();
  const made: Row[] = [];
  const answers: EnqueueResult[] = [];
  for (const request of requests) {
    const sameId =
      request.id === undefined ? undefined : (byId.get(request.id) ?? store.rows.get(request.id));
    if (sameId !== undefined) {
      answers.push(answerSameId(request, sameId));
      continue;
    }
    const key = keyOf(request);
    if (key !== undefined) {
      const holderId = store.liveKeys.get(key);
      const holder =
        byKey.get(key) ?? (holderId === undefined ? undefined : store.rows.get(holderId));
      if (holder !== undefined) {
        answers.push(refuseOrDedupe(request, holder));
        continue;
      }
    }
    const row = newRow(store, request, now);
    // Only a caller's id can meet another; a generated one is new to the store and the batch.
    if (request.id !== undefined) byId.set(row.id, row);
    if (key !== undefined) byKey.set(key, row);
    made.push(row);
    answers.push(answer(row, false));
  }
  const queues = new Set<string>();
  for (const row of made) {
    insertRow(store, row);
    queues.add(row.queue);
  }
  notify(store, queues);
  return answers;
}
