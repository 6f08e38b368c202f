import {
  type EnqueueResult,
  enqueueIndexDisagrees,
  idTaken,
  jobDuplicate,
  LIVE_STATES,
  type ScreenedEnqueue,
  sameTenant,
} from '@berth/core/driver';
import { newId } from './ids.js';
import { DRIVER_NAME, insertRow, namespaceKey, type Row, type Store } from './store.js';
import { notify } from './wake.js';

/** Why an insert did not land: the caller's id exists, or a live row holds the key. */
type InsertOutcome =
  | { readonly kind: 'inserted'; readonly row: Row }
  | { readonly kind: 'id-exists'; readonly row: Row }
  | { readonly kind: 'key-held'; readonly holderId: string };

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
    id: request.id ?? newId(),
    runId: newId(),
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
function tryInsert(store: Store, request: ScreenedEnqueue): InsertOutcome {
  if (request.id !== undefined) {
    const existing = store.rows.get(request.id);
    if (existing !== undefined) return { kind: 'id-exists', row: existing };
  }
  const key = keyOf(request);
  const holderId = key === undefined ? undefined : store.liveKeys.get(key);
  if (holderId !== undefined) return { kind: 'key-held', holderId };
  const row = newRow(store, request, store.clock.now());
  insertRow(store, row);
  return { kind: 'inserted', row };
}

/**
 * The lookup step: the row the refused insert met, if it still holds the key. One that settled
 * in between (even if another row took the key since) is a miss, and the insert is tried again.
 */
function lookUpHolder(store: Store, request: ScreenedEnqueue, holderId: string): Row | undefined {
  const row = store.rows.get(holderId);
  if (row === undefined || !LIVE_STATES.has(row.state)) return undefined;
  const same =
    row.name === request.name &&
    row.tenantId === request.tenantId &&
    row.idempotencyKey === request.idempotencyKey;
  return same ? row : undefined;
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
 * Insert; on a key conflict await the seam, then look the holder up. A holder that settled in
 * between freed the key: insert once more. A second conflict with no holder behind it means the
 * index and the rows disagree.
 */
export async function enqueue(store: Store, request: ScreenedEnqueue): Promise<EnqueueResult> {
  for (let attempt = 1; attempt <= 2; attempt += 1) {
    const outcome = tryInsert(store, request);
    if (outcome.kind === 'inserted') {
      notify(store, [outcome.row.queue]);
      return answer(outcome.row, false);
    }
    if (outcome.kind === 'id-exists') return answerSameId(request, outcome.row);
    await store.hooks.afterEnqueueConflict?.();
    const holder = lookUpHolder(store, request, outcome.holderId);
    if (holder !== undefined) return refuseOrDedupe(request, holder);
  }
  throw enqueueIndexDisagrees(DRIVER_NAME, request.name);
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
