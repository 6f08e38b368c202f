import {
  type EnqueueResult,
  type InsertOutcome,
  idTaken,
  jobDuplicate,
  type KeyedEnqueue,
  type ScreenedEnqueue,
  timeOrderedUuid,
} from '@berth/core/driver';
import { intArray, uuidArray } from '../array-literal.js';
import { sqlState } from '../executor.js';
import { jsonParam } from '../rows.js';
import type { OpsContext } from './context.js';

interface IdRow {
  readonly id: string;
  readonly run_id: string;
}

interface InsertRow extends IdRow {
  readonly hit: 'inserted' | 'id' | 'taken' | 'key';
}

interface BatchRow {
  readonly ord: number;
  readonly verdict: 'land' | 'id' | 'taken' | 'key' | 'error';
  readonly answer_id: string;
  readonly answer_run: string;
}

const answer = (row: IdRow, deduped: boolean): EnqueueResult => ({
  id: row.id,
  runId: row.run_id,
  deduped,
});

/** The key namespace an item occupies: JSON keeps the three parts apart with no separator. */
const namespaceOf = (request: ScreenedEnqueue): string | null =>
  request.idempotencyKey === undefined
    ? null
    : JSON.stringify([request.name, request.tenantId ?? null, request.idempotencyKey]);

/** unique_violation, deadlock_detected: the batch landed nothing and a new walk can answer. */
const RETRIED = new Set(['23505', '40P01']);

/** The insert's parameters $1–$16, shared by every statement that inserts one job. */
export function insertParams(
  request: ScreenedEnqueue,
  id: string,
  runId: string,
  now: number,
  channel: string,
): unknown[] {
  return [
    id,
    runId,
    request.name,
    request.queue,
    jsonParam(request.payload),
    request.runAt ?? now,
    now,
    request.priority,
    request.maxAttempts,
    request.idempotencyKey ?? null,
    request.concurrencyKey ?? null,
    request.tenantId ?? null,
    request.traceparent ?? null,
    request.enqueuedBy ?? null,
    request.parentId ?? null,
    channel,
  ];
}

export function enqueueOps(context: OpsContext) {
  const { db, sql, clock, channel } = context;

  const insertRows = (request: ScreenedEnqueue, id: string, runId: string) => {
    const now = clock.now();
    return db.rows<InsertRow>('enqueue', sql.enqueue.insert, [
      ...insertParams(request, id, runId, now, channel),
      request.id !== undefined,
    ]);
  };

  /**
   * The insert step: one statement answers the row it made, the caller id's row, or the key's
   * live holder. No row at all: a writer committed after the statement's snapshot — of the key
   * (the holder is then found by key) or of the caller id (the insert is sent again).
   */
  async function insert(request: ScreenedEnqueue): Promise<InsertOutcome> {
    const allocatedAt = clock.now();
    const id = request.id ?? timeOrderedUuid(allocatedAt);
    const rows = await insertRows(request, id, timeOrderedUuid(allocatedAt));
    const hit = (kind: InsertRow['hit']) => rows.find((row) => row.hit === kind);
    const made = hit('inserted');
    if (made !== undefined) return { kind: 'landed', result: answer(made, false) };
    if (hit('taken') !== undefined) return { kind: 'id-taken' };
    const existing = hit('id');
    if (existing !== undefined) return { kind: 'landed', result: answer(existing, true) };
    if (request.idempotencyKey === undefined) return { kind: 'raced' };
    return { kind: 'key-held', holderId: hit('key')?.id };
  }

  /** The lookup step: the holder that refused the insert (or the key's), if it is still live. */
  async function liveHolder(
    request: KeyedEnqueue,
    holderId: string | undefined,
  ): Promise<EnqueueResult | undefined> {
    const [holder] =
      holderId === undefined
        ? // The holder committed after the insert's snapshot: only the key can find it.
          await db.rows<IdRow>('enqueue', sql.enqueue.holder, [
            request.name,
            request.tenantId ?? null,
            request.idempotencyKey,
          ])
        : await db.rows<IdRow>('enqueue', sql.enqueue.stillLive, [holderId]);
    return holder === undefined ? undefined : answer(holder, true);
  }

  /**
   * The batch is one statement that lands whole or not at all. A writer that took one of its ids
   * or keys after the statement read the table makes the index refuse it all (on an app's
   * transaction, under a savepoint, so the transaction stays usable); the batch is then walked
   * again over what that writer committed, which the next walk dedupes. A batch PostgreSQL ends
   * as a deadlock victim (two writers inserting shared keys in different orders) lands nothing
   * and is walked again the same way. Walks are bounded by the batch: one per item that met a
   * conflict, and one more.
   */
  async function enqueueMany(requests: readonly ScreenedEnqueue[]): Promise<EnqueueResult[]> {
    for (let walk = 0; ; walk += 1) {
      try {
        return await enqueueBatch(requests);
      } catch (error) {
        if (!RETRIED.has(sqlState(error) ?? '') || walk >= requests.length) throw error;
      }
    }
  }

  /** No caller id and no key: every item lands under its fresh id, read nothing. */
  async function enqueuePlain(requests: readonly ScreenedEnqueue[]): Promise<EnqueueResult[]> {
    const now = clock.now();
    const ids = requests.map(() => timeOrderedUuid(now));
    const runIds = requests.map(() => timeOrderedUuid(now));
    const column = <T>(pick: (request: ScreenedEnqueue) => T) => requests.map(pick);
    await db.rows('enqueue a batch', sql.enqueueMany.insertPlain, [
      uuidArray(ids),
      uuidArray(runIds),
      column((request) => request.name),
      column((request) => request.queue),
      column((request) => jsonParam(request.payload)),
      intArray(column((request) => request.runAt ?? now)),
      intArray(column((request) => request.priority)),
      intArray(column((request) => request.maxAttempts)),
      column((request) => request.concurrencyKey ?? null),
      column((request) => request.tenantId ?? null),
      column((request) => request.traceparent ?? null),
      column((request) => request.enqueuedBy ?? null),
      column((request) => request.parentId ?? null),
      now,
      channel,
    ]);
    return ids.map((id, index) => ({ id, runId: runIds[index] as string, deduped: false }));
  }

  async function enqueueBatch(requests: readonly ScreenedEnqueue[]): Promise<EnqueueResult[]> {
    if (
      requests.every((request) => request.id === undefined && request.idempotencyKey === undefined)
    ) {
      return enqueuePlain(requests);
    }
    const now = clock.now();
    const column = <T>(pick: (request: ScreenedEnqueue) => T) => requests.map(pick);
    const rows = await db.guarded<BatchRow>('enqueue a batch', sql.enqueueMany.insertMany, [
      requests.map((_, index) => index + 1),
      column((request) => request.id ?? timeOrderedUuid(now)),
      column((request) => request.id !== undefined),
      column(() => timeOrderedUuid(now)),
      column((request) => request.name),
      column((request) => request.queue),
      column((request) => jsonParam(request.payload)),
      column((request) => request.runAt ?? now),
      column((request) => request.priority),
      column((request) => request.maxAttempts),
      column((request) => request.idempotencyKey ?? null),
      column((request) => request.onConflict === 'error'),
      column((request) => request.concurrencyKey ?? null),
      column((request) => request.tenantId ?? null),
      column((request) => request.traceparent ?? null),
      column((request) => request.enqueuedBy ?? null),
      column((request) => request.parentId ?? null),
      column(namespaceOf),
      now,
      channel,
    ]);
    // The first refused item in batch order answers, as enqueuing one by one would.
    const refused = rows.find((row) => row.verdict === 'error' || row.verdict === 'taken');
    if (refused?.verdict === 'taken') throw idTaken();
    if (refused !== undefined) {
      const request = requests[refused.ord - 1];
      if (request !== undefined) throw jobDuplicate(request, refused.answer_id);
    }
    return rows.map((row) => ({
      id: row.answer_id,
      runId: row.answer_run,
      deduped: row.verdict !== 'land',
    }));
  }

  return { insert, liveHolder, enqueueMany };
}
