import { randomUUID } from 'node:crypto';
import {
  driverUnavailable,
  type EnqueueResult,
  enqueueIndexDisagrees,
  idTaken,
  jobDuplicate,
  type ScreenedEnqueue,
  sameTenant,
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
    runId: randomUUID(),
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
  };
}

const made = (job: StoredJob): EnqueueResult => ({ id: job.id, runId: job.runId, deduped: false });
const deduped = (job: { id: string; runId: string }): EnqueueResult => ({
  id: job.id,
  runId: job.runId,
  deduped: true,
});

/** The job a caller id made answers it, unless a row of another tenant holds the id. */
function sameId(request: ScreenedEnqueue, job: StoredJob): EnqueueResult {
  if (!sameTenant(job.tenantId, request.tenantId)) throw idTaken();
  return deduped(job);
}

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
async function insertPlain(context: NatsContext, request: ScreenedEnqueue): Promise<EnqueueResult> {
  const id = request.id ?? randomUUID();
  const job = await spillJob(context, newJob(request, id, context.clock.now()));
  let revision = 0;
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    if ((await writeJob(context, id, { job }, revision)) !== undefined) {
      context.wake.publish([job.queue]);
      return made(job);
    }
    const slot = await readSlot(context, id, 'abort');
    if (slot.current !== undefined) return sameId(request, slot.current.job);
    revision = slot.revision;
  }
  throw contended(request.name);
}

type KeyedOutcome =
  | { readonly kind: 'done'; readonly result: EnqueueResult }
  | { readonly kind: 'conflict'; readonly holderId: string };

/**
 * The insert step of a keyed enqueue. A live holder refuses it (answering which row). Otherwise
 * the row is written pending in a batch of its own, the holder is pointed at it, and the batch's
 * decision key commits it: the ONE write that makes it a job. Until then it is invisible, and a
 * writer that meets it through the holder commits it on its behalf, so a crash at any point
 * leaves either no job and a free key, or one live job holding the key.
 */
async function insertKeyed(
  context: NatsContext,
  request: ScreenedEnqueue & { idempotencyKey: string },
): Promise<KeyedOutcome> {
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const id = request.id ?? randomUUID();
    const slot = request.id === undefined ? undefined : await readSlot(context, id, 'abort');
    if (slot?.current !== undefined) {
      return { kind: 'done', result: sameId(request, slot.current.job) };
    }
    const holder = await readHolder(context, request);
    if (holder.id !== undefined && holder.id !== id) {
      if ((await liveHolder(context, request, holder.id)) !== undefined) {
        return { kind: 'conflict', holderId: holder.id };
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
      return { kind: 'done', result: made(job) };
    }
  }
  throw contended(request.name);
}

/**
 * One enqueue, with the contract's retry: a refusal by a live key holder runs the seam, then
 * re-reads THAT row; one that settled in between frees the key and the insert is tried once
 * more. A second refusal whose holder is gone too throws enqueueIndexDisagrees.
 */
export async function enqueueOne(
  context: NatsContext,
  request: ScreenedEnqueue,
): Promise<EnqueueResult> {
  const { idempotencyKey } = request;
  if (idempotencyKey === undefined) return insertPlain(context, request);
  const keyed = { ...request, idempotencyKey };
  for (let attempt = 1; attempt <= 2; attempt += 1) {
    const outcome = await insertKeyed(context, keyed);
    if (outcome.kind === 'done') return outcome.result;
    await context.hooks.afterEnqueueConflict?.();
    const holder = await liveHolder(context, request, outcome.holderId);
    if (holder !== undefined) {
      if (request.onConflict === 'error') throw jobDuplicate(request, holder.id);
      return deduped(holder);
    }
  }
  throw enqueueIndexDisagrees(DRIVER, request.name);
}
