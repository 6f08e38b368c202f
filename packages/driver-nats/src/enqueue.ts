import { randomUUID } from 'node:crypto';
import {
  driverUnavailable,
  type EnqueueResult,
  type InsertOutcome,
  type KeyedEnqueue,
  type ScreenedEnqueue,
  sameTenant,
  timeOrderedUuid,
} from '@berth/core/driver';
import { spillJob } from './blobs.js';
import { DRIVER, type NatsContext, writeJob } from './context.js';
import { decideBatch, readSlot } from './docs.js';
import { liveHolder, readHolder, takeHolder } from './holders.js';
import type { StoredJob } from './record.js';

/** Rounds a keyed insert retries when other writers keep taking the key or the id under it. */
export const MAX_ROUNDS = 16;

/** The record a new job starts as (its `seq` is the revision of its first write). */
export function newJob(request: ScreenedEnqueue, id: string, now: number): StoredJob {
  const runAt = request.runAt ?? now;
  return {
    id,
    runId: timeOrderedUuid(now),
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
    claim: 0,
    ...(request.idempotencyKey === undefined ? {} : { idempotencyKey: request.idempotencyKey }),
    ...(request.concurrencyKey === undefined ? {} : { concurrencyKey: request.concurrencyKey }),
    ...(request.tenantId === undefined ? {} : { tenantId: request.tenantId }),
    ...(request.traceparent === undefined ? {} : { traceparent: request.traceparent }),
    ...(request.enqueuedBy === undefined ? {} : { enqueuedBy: request.enqueuedBy }),
    ...(request.parentId === undefined ? {} : { parentId: request.parentId }),
  };
}

const made = (job: StoredJob): EnqueueResult => ({ id: job.id, runId: job.runId, deduped: false });
const deduped = (job: { id: string; runId: string }): EnqueueResult => ({
  id: job.id,
  runId: job.runId,
  deduped: true,
});

/** The job a caller id made answers it, unless a row of another tenant holds the id. */
const sameId = (request: ScreenedEnqueue, job: StoredJob): InsertOutcome =>
  sameTenant(job.tenantId, request.tenantId)
    ? { kind: 'landed', result: deduped(job) }
    : { kind: 'id-taken' };

const contended = (name: string) =>
  driverUnavailable({
    driver: DRIVER,
    operation: 'enqueue',
    detail: `the insert of ${JSON.stringify(name)} lost ${MAX_ROUNDS} races in a row to other writers of its id or key`,
    fix: 'retry the enqueue; if it keeps failing, look for a writer enqueuing the same id or key in a loop',
  });

/**
 * A row without an idempotency key: ONE create of its key commits it. A caller id that exists
 * answers that job; a doc there that is not visible (a batch that never committed) is written over.
 */
async function insertPlain(context: NatsContext, request: ScreenedEnqueue): Promise<InsertOutcome> {
  const now = context.clock.now();
  const id = request.id ?? timeOrderedUuid(now);
  const job = await spillJob(context, newJob(request, id, now));
  let revision = 0;
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    if ((await writeJob(context, id, { job }, revision)) !== undefined) {
      context.wake.publish([job.queue]);
      return { kind: 'landed', result: made(job) };
    }
    const slot = await readSlot(context, id, 'abort');
    if (slot.current !== undefined) return sameId(request, slot.current.job);
    revision = slot.revision;
  }
  throw contended(request.name);
}

/**
 * The insert step of a keyed enqueue. A live holder refuses it (answering which row). Otherwise
 * the row is written pending in a batch of its own, the holder is pointed at it, and the batch's
 * decision key commits it: the ONE write that makes it a job. Until then it is invisible, and a
 * writer that meets it through the holder commits it on its behalf, so a crash at any point
 * leaves either no job and a free key, or one live job holding the key.
 */
async function insertKeyed(context: NatsContext, request: KeyedEnqueue): Promise<InsertOutcome> {
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const id = request.id ?? timeOrderedUuid(context.clock.now());
    const slot = request.id === undefined ? undefined : await readSlot(context, id, 'abort');
    if (slot?.current !== undefined) {
      return sameId(request, slot.current.job);
    }
    const holder = await readHolder(context, request);
    if (holder.id !== undefined && holder.id !== id) {
      if ((await liveHolder(context, request, holder.id)) !== undefined) {
        return { kind: 'key-held', holderId: holder.id };
      }
    }
    const job = await spillJob(context, newJob(request, id, context.clock.now()));
    const batch = randomUUID();
    const pending = { batch, solo: true, create: job };
    if ((await writeJob(context, id, { pending }, slot?.revision ?? 0)) === undefined) continue;
    if (!(await takeHolder(context, request, id, holder.revision))) {
      await decideBatch(context, batch, 'aborted');
      continue;
    }
    if ((await decideBatch(context, batch, 'committed')) === 'committed') {
      context.wake.publish([job.queue]);
      return { kind: 'landed', result: made(job) };
    }
  }
  throw contended(request.name);
}

/** The insert step: one create of the job's key, or the keyed insert through its holder. */
export function insertOne(context: NatsContext, request: ScreenedEnqueue): Promise<InsertOutcome> {
  const { idempotencyKey } = request;
  if (idempotencyKey === undefined) return insertPlain(context, request);
  return insertKeyed(context, { ...request, idempotencyKey });
}

/**
 * The lookup step: the refused insert's holder while it is live and holds the key. The keyed
 * insert always names its holder, so `holderId` is always given.
 */
export async function lookUpHolder(
  context: NatsContext,
  request: KeyedEnqueue,
  holderId: string | undefined,
): Promise<EnqueueResult | undefined> {
  if (holderId === undefined) return undefined;
  const holder = await liveHolder(context, request, holderId);
  return holder === undefined ? undefined : deduped(holder);
}
