import type { ScreenedPurge } from '@berth/core/driver';
import { deleteJob, dropAuxUnder, type NatsContext, writeJob } from './context.js';
import { collectMarkers } from './delete-markers.js';
import { decideBatch } from './docs.js';
import { readHolder } from './holders.js';
import { finishedOrder, type Row } from './index/row.js';
import { ensureSent, tailSent } from './lifecycle-announce.js';
import { decideMarked } from './mark-commit.js';
import { createMarkStore } from './marks.js';
import type { StoredJob } from './record.js';
import { purgeKey } from './writes.js';

/** Rows one purge round removes at most: a call's limit is reached in as many rounds as needed. */
const PURGE_BATCH = 500;
/** Batch decisions one purge tidies at most. */
const TIDY_BATCH = 500;
/**
 * A batch still undecided this long after its rows were written lost its writer (a crash between
 * writing them and deciding): the purge aborts it, so its rows are dropped instead of hidden forever.
 */
export const BATCH_GRACE_MS = 10 * 60_000;

/**
 * One settled row: its key is deleted (a marker every watcher sees: the ONE write that removes
 * it), then its step payloads, spilled parts and, if it still names the row, its idempotency
 * holder. Those go after the record, so a crash between leaves only garbage nothing points at.
 */
async function remove(context: NatsContext, row: Row): Promise<boolean> {
  const { pending } = row.doc;
  if (pending !== undefined && context.index.batch(pending.batch) === undefined) {
    // A requeue in flight: abort it first; one that committed made the row live again.
    if ((await decideBatch(context, pending.batch, 'aborted')) === 'committed') return false;
  }
  const { job } = row;
  // Only rows an earlier driver version wrote carry a mark (job first, mark after): such a row
  // goes only once its mark stands. Rows written now show only once their mark stands.
  if (job.mark !== undefined) await createMarkStore(context).advance(job.mark.name, job.mark.value);
  // Once the record is gone nobody could publish a tail its writer left unsent: now, then.
  if (!tailSent(context, job, row.revision)) await ensureSent(context, job);
  if (!(await deleteJob(context, row.id, row.revision))) return false;
  await dropOwned(context, job);
  return true;
}

/**
 * What a removed row owned, dropped after its record went (purge, delete): its step payloads,
 * log lines, spilled parts and, if it still names the row, its idempotency holder.
 */
export async function dropOwned(context: NatsContext, job: StoredJob): Promise<void> {
  await Promise.all([
    dropAuxUnder(context, context.subjects.stepsOfRun(job.runId)),
    dropAuxUnder(context, context.subjects.logsOfJob(job.id)),
    dropAuxUnder(context, context.subjects.blobsOf(job.id)),
    (async () => {
      if (job.idempotencyKey === undefined) return;
      const holder = await readHolder(context, { ...job, idempotencyKey: job.idempotencyKey });
      if (holder.id !== job.id) return;
      const key = context.subjects.holder(job.name, job.tenantId, job.idempotencyKey);
      await purgeKey(
        context.jsm,
        context.subjects.auxStream,
        context.subjects.auxSubject(key),
        holder.revision,
      );
    })().catch(() => {}),
  ]);
}

/**
 * Aborts a batch whose writer vanished. An `advanceMark` row commits only through its mark, so
 * its batch is decided there: it may have committed, or is made never to (mark-commit.ts).
 */
async function abandon(context: NatsContext, batch: string): Promise<void> {
  for (const id of context.index.pendingIn(batch)) {
    const pending = context.index.entry(id)?.doc.pending;
    if (pending?.batch === batch && pending.mark !== undefined) {
      await decideMarked(context, { batch, mark: pending.mark, id }, 'kill');
      return;
    }
  }
  await decideBatch(context, batch, 'aborted');
}

/**
 * Batch decisions no row needs any more are deleted; rows of aborted batches (never visible) are
 * dropped first, and batches whose writer vanished before deciding are aborted.
 */
async function tidyBatches(context: NatsContext): Promise<void> {
  const now = context.clock.now();
  for (const batch of context.index.undecidedBatches(now - BATCH_GRACE_MS, TIDY_BATCH)) {
    await abandon(context, batch);
  }
  await context.mirror.syncFull();
  for (const batch of context.index.abortedBatches(TIDY_BATCH)) {
    await Promise.all(
      context.index.pendingIn(batch).map(async (id) => {
        const entry = context.index.entry(id);
        if (entry?.doc.pending?.batch !== batch) return;
        const { job } = entry.doc;
        if (job === undefined) await deleteJob(context, id, entry.revision);
        else await writeJob(context, id, { job }, entry.revision);
      }),
    );
  }
  await context.mirror.syncFull();
  await Promise.all(
    context.index
      .idleBatches(TIDY_BATCH)
      .map((batch) => context.jobs.delete(context.subjects.batch(batch)).catch(() => {})),
  );
}

/** The settled rows among `ids` that the request's states and instant select. */
function chosen(context: NatsContext, request: ScreenedPurge, ids: readonly string[]): Row[] {
  const states = new Set(request.states);
  return ids
    .flatMap((id) => {
      const row = context.index.row(id);
      const { state, finishedAt } = row?.job ?? {};
      if (row === undefined || state === undefined || !states.has(state)) return [];
      return finishedAt !== undefined && finishedAt < request.olderThan ? [row] : [];
    })
    .sort(finishedOrder)
    .slice(0, request.limit);
}

/**
 * Removes up to `limit` settled rows of `states` finished before `olderThan`, oldest first, round
 * by round; answers how many went. A row that changed under a round is passed over, not waited for.
 */
export async function purge(context: NatsContext, request: ScreenedPurge): Promise<number> {
  if (request.ids !== undefined) {
    await context.mirror.syncFull();
    const rows = chosen(context, request, request.ids);
    const removed = await Promise.all(rows.map((row) => remove(context, row)));
    return removed.filter(Boolean).length;
  }
  let total = 0;
  const tried = new Set<string>();
  while (total < request.limit) {
    await context.mirror.syncFull();
    const round = Math.min(PURGE_BATCH, request.limit - total);
    const rows = context.index
      .finishedBefore(request.states, request.olderThan, round + tried.size)
      .filter((row) => !tried.has(row.id))
      .slice(0, round);
    if (rows.length === 0) break;
    for (const row of rows) tried.add(row.id);
    const removed = await Promise.all(rows.map((row) => remove(context, row)));
    total += removed.filter(Boolean).length;
  }
  await tidyBatches(context);
  await collectMarkers(context);
  return total;
}
