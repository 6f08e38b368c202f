import { randomUUID } from 'node:crypto';
import {
  driverUnavailable,
  type EnqueueResult,
  idTaken,
  jobDuplicate,
  type MarkAdvance,
  type MarkPassed,
  type ScreenedEnqueue,
  sameTenant,
} from '@berth/core/driver';
import { spillJob } from './blobs.js';
import { DRIVER, deleteJob, type NatsContext, writeJob } from './context.js';
import { decideBatch, readDoc, resolveDoc } from './docs.js';
import { MAX_ROUNDS, newJob } from './enqueue.js';
import { type Holder, type KeyOf, liveHolder, readHolder, takeHolder } from './holders.js';
import type { DocEntry } from './index/job-index.js';
import { decideMarked, type MarkedPending } from './mark-commit.js';
import { type MarkEntry, markValue, readMark, settleNamed, writeMark } from './marks.js';
import type { StoredJob } from './record.js';

/** A marked row this call may commit: its own, or a racing writer's of the same slot. */
interface Target extends MarkedPending {
  readonly job: StoredJob;
  /** The revision of `j.<id>` this call wrote, for its own rows. */
  readonly written?: number;
}

/** One enqueue with `advanceMark` in progress: what it read and the rows it wrote. */
interface Call {
  readonly context: NatsContext;
  readonly request: ScreenedEnqueue;
  readonly mark: MarkAdvance;
  readonly id: string;
  readonly mine: Target[];
}

const contended = (name: string) =>
  driverUnavailable({
    driver: DRIVER,
    operation: 'enqueue',
    detail: `the enqueue of ${JSON.stringify(name)} with advanceMark lost ${MAX_ROUNDS} races in a row to other writers of its mark, id or key`,
    fix: 'retry the enqueue; if it keeps failing, look for a writer advancing the same mark in a loop',
  });

/**
 * `enqueue` with `advanceMark`. KV writes one key atomically, so the mark's own conditional write
 * is the ONE write that decides: the mark check and the enqueue are one decision.
 *
 * 1. The mark is read (value, revision). At or above the value: `markPassed`, nothing written.
 * 2. The job's key is read. A job there answers it (deduped) once the mark rises over the
 *    revision read; a live holder of the key answers likewise (or JOB_DUPLICATE: no mark).
 * 3. Otherwise the row is written PENDING under its id, naming the mark write that commits it
 *    (`Pending.mark`: name, value and the revision read), and the key's holder pointed at it.
 * 4. The mark is written over the revision read, naming the row's batch: the commit. Then
 *    `b.<batch>` records it for every process's index, and the job shows.
 *
 * A write at 4 that meets a moved mark lands nothing, and the call decides again from step 1: a
 * call held back between 1 and 4 (a slow leader) while another enqueued the slot, even one that
 * ran and was purged, answers `markPassed`, and its row can never commit (mark-commit.ts). A
 * crash before 4 leaves an invisible row and the mark unraised, so the next enqueue of the slot
 * enqueues it (committing that very row when the mark has not moved); a crash after 4 leaves the
 * job committed, recorded by the next read of the mark (`settleNamed`). Racing callers of one
 * slot commit one row: a caller that meets another's row written over the revision it read
 * commits that row instead of writing its own. A purge needs no mark: a row shows only once its
 * mark stands.
 */
export async function enqueueAdvancing(
  context: NatsContext,
  request: ScreenedEnqueue,
  mark: MarkAdvance,
): Promise<EnqueueResult | MarkPassed> {
  const call: Call = { context, request, mark, id: request.id ?? randomUUID(), mine: [] };
  let held = false;
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const entry = await readMark(context, mark.name);
    const value = markValue(entry);
    if (value !== undefined && value >= mark.value) return passed(call, entry);
    const row = await readDoc(context, call.id);
    if (!held) {
      held = true;
      await context.hooks.beforeMarkedEnqueue?.();
    }
    const answer = await attempt(call, entry, row);
    if (answer !== undefined) return answer;
  }
  throw contended(request.name);
}

/** One round from what was read; undefined when a racing write moved something: decide again. */
async function attempt(
  call: Call,
  entry: MarkEntry,
  row: DocEntry | undefined,
): Promise<EnqueueResult | undefined> {
  const { context, mark, id } = call;
  const pending = row?.doc.pending;
  let target: Target | undefined;
  if (pending?.mark !== undefined && pending.create !== undefined && sameSlot(pending.mark, mark)) {
    const theirs = { batch: pending.batch, mark: pending.mark, id, job: pending.create };
    // Written over a later revision than this round read: the read is stale.
    if (pending.mark.revision > entry.revision) return undefined;
    if (pending.mark.revision === entry.revision) {
      if (!sameTenant(pending.create.tenantId, call.request.tenantId)) throw idTaken();
      target = mineOr(call, theirs);
    } else if ((await decideMarked(context, theirs, 'read')) === 'committed') {
      return landed(call, entry, pending.create);
    }
  } else if (row !== undefined) {
    const job = await resolveDoc(context, row, 'abort');
    if (job !== undefined) return landed(call, entry, job);
  }
  const key = await checkKey(call);
  if (key !== undefined && 'live' in key) return keyHeld(call, entry, key.live);
  if (target === undefined) {
    target = await writeOwn(call, entry, row?.revision ?? 0);
    if (target === undefined) return undefined;
  }
  if (key !== undefined && key.holder.id !== id) {
    if (!(await takeHolder(context, key.of, id, key.holder.revision))) return undefined;
  }
  const commit = { batch: target.batch, id };
  if (!(await writeMark(context, entry, mark.value, commit))) return undefined;
  await decideBatch(context, target.batch, 'committed');
  context.wake.publish([target.job.queue]);
  return answerFor(call, target);
}

const sameSlot = (a: { name: string; value: number }, b: MarkAdvance) =>
  a.name === b.name && a.value === b.value;

/** This call's own row when it wrote that batch in an earlier round, else `theirs`. */
const mineOr = (call: Call, theirs: Target): Target =>
  call.mine.find((own) => own.batch === theirs.batch) ?? theirs;

/** Made when the committed row is this call's own; a racing writer's row answers deduped. */
const answerFor = (call: Call, target: Target): EnqueueResult => ({
  id: target.id,
  runId: target.job.runId,
  deduped: !call.mine.some((own) => own.batch === target.batch),
});

type KeyCheck =
  | { readonly of: KeyOf & { idempotencyKey: string }; readonly holder: Holder }
  | { readonly live: StoredJob };

/** The key's holder (undefined without a key), or the LIVE row of another id that holds it. */
async function checkKey(call: Call): Promise<KeyCheck | undefined> {
  const { context, request, id } = call;
  const { idempotencyKey } = request;
  if (idempotencyKey === undefined) return undefined;
  const of = { ...request, idempotencyKey };
  const holder = await readHolder(context, of);
  if (holder.id === undefined || holder.id === id) return { of, holder };
  const live = await liveHolder(context, request, holder.id);
  return live === undefined ? { of, holder } : { live };
}

/** Writes this call's row pending under its id, over `revision` (0: creates the key). */
async function writeOwn(call: Call, entry: MarkEntry, revision: number) {
  const { context, request, mark, id } = call;
  const plain = { ...request, advanceMark: undefined };
  const job = await spillJob(context, newJob(plain, id, context.clock.now()));
  const batch = randomUUID();
  const commit = { name: mark.name, value: mark.value, revision: entry.revision };
  const doc = { pending: { batch, solo: false, create: job, mark: commit } };
  const written = await writeJob(context, id, doc, revision);
  if (written === undefined) return undefined;
  const own: Target = { batch, mark: commit, id, job, written };
  call.mine.push(own);
  return own;
}

/** A job under the id answers the call, deduped, once the mark rises over the revision read. */
async function landed(call: Call, entry: MarkEntry, job: StoredJob) {
  if (!sameTenant(job.tenantId, call.request.tenantId)) throw idTaken();
  if (!(await writeMark(call.context, entry, call.mark.value))) return undefined;
  await dropDead(call);
  return { id: job.id, runId: job.runId, deduped: true };
}

/** A live row of another id holds the key: it answers, deduped, with the mark raised. */
async function keyHeld(call: Call, entry: MarkEntry, live: StoredJob) {
  if (call.request.onConflict === 'error') throw jobDuplicate(call.request, live.id);
  if (!(await writeMark(call.context, entry, call.mark.value))) return undefined;
  await dropDead(call);
  return { id: live.id, runId: live.runId, deduped: true };
}

/**
 * The mark holds the value: the slot was enqueued, by this call (a commit whose answer lost a
 * race, or that another caller made for it) or by another. The enqueue the mark names has its
 * decision recorded, and rows of this call that can never commit are removed.
 */
async function passed(call: Call, entry: MarkEntry): Promise<EnqueueResult | MarkPassed> {
  await settleNamed(call.context, entry);
  for (const own of call.mine) {
    if ((await decideMarked(call.context, own, 'read')) === 'committed')
      return answerFor(call, own);
  }
  await dropDead(call);
  return { markPassed: true };
}

/** Removes this call's rows the mark moved past (each still at the revision written). */
async function dropDead(call: Call): Promise<void> {
  for (const own of call.mine) {
    if (own.written === undefined) continue;
    if ((await decideMarked(call.context, own, 'read')) !== 'aborted') continue;
    await deleteJob(call.context, own.id, own.written).catch(() => false);
  }
}
