import type { NatsContext } from './context.js';
import type { DocEntry } from './index/job-index.js';
import { decideMarked } from './mark-commit.js';
import {
  type BatchDoc,
  type BatchState,
  decodeJson,
  encodeJson,
  type StoredJob,
  settledFields,
  visibleJob,
} from './record.js';
import { createKey } from './writes.js';

/**
 * A job key read from the bucket now (not from the index): the doc it holds, if any, and the
 * revision a write over the key must name (0 when it holds nothing, a delete marker's own).
 */
async function readKey(
  context: NatsContext,
  id: string,
): Promise<{ readonly entry: DocEntry | undefined; readonly revision: number }> {
  const raw = await context.jobs.get(context.subjects.job(id));
  if (raw === null) return { entry: undefined, revision: 0 };
  if (raw.operation !== 'PUT') return { entry: undefined, revision: raw.revision };
  return { entry: { doc: decodeJson(raw.value), revision: raw.revision }, revision: raw.revision };
}

/** A job key read from the bucket now (not from the index): its doc and revision, or undefined. */
export async function readDoc(context: NatsContext, id: string): Promise<DocEntry | undefined> {
  return (await readKey(context, id)).entry;
}

/** A batch's decision as stored now, or undefined while it is in flight. */
async function readBatch(context: NatsContext, id: string): Promise<BatchState | undefined> {
  const known = context.index.batch(id);
  if (known !== undefined) return known;
  const entry = await context.jobs.get(context.subjects.batch(id));
  if (entry === null || entry.operation !== 'PUT') return undefined;
  return decodeJson<BatchDoc>(entry.value).state;
}

/**
 * Decides batch `id`: its decision key is created (create-if-absent, the one conditional write
 * that commits or aborts every row of the batch). Answers the decision that stands, which is
 * another caller's when one got there first.
 */
export async function decideBatch(
  context: NatsContext,
  id: string,
  want: BatchState,
): Promise<BatchState> {
  const key = context.subjects.batch(id);
  const written = await createKey(
    context.jobs,
    key,
    encodeJson({ state: want } satisfies BatchDoc),
  );
  if (written !== undefined) {
    context.mirror.wrote(written);
    return want;
  }
  const stood = await readBatch(context, id);
  // A decision is deleted only once no row names it; a row read before that reads as decided.
  return stood ?? 'aborted';
}

/**
 * What a caller may do with a pending change whose batch is still in flight: a plain reader
 * (`read`) sees the record as it was before that change and decides nothing, so a read never
 * aborts a writer's batch; a writer about to write over the key `abort`s it first, so a writer
 * that stopped half way never leaves a row hidden or a key blocked; one that reached a solo row
 * through its own idempotency holder (the row is ready to commit) may `commit` it. An
 * `advanceMark` row is decided through its mark (mark-commit.ts), never by its batch key alone.
 */
export type Meeting = 'read' | 'abort' | 'commit';

/** The visible record of a doc read now, given what the caller may decide (see {@link Meeting}). */
export async function resolveDoc(
  context: NatsContext,
  entry: DocEntry,
  meeting: Meeting,
): Promise<StoredJob | undefined> {
  const { pending } = entry.doc;
  if (pending === undefined) return entry.doc.job;
  if (pending.mark !== undefined && pending.create !== undefined) {
    const marked = { batch: pending.batch, mark: pending.mark, id: pending.create.id };
    const intent = meeting === 'abort' ? 'kill' : meeting;
    return visibleJob(entry.doc, await decideMarked(context, marked, intent));
  }
  const known = await readBatch(context, pending.batch);
  if (known === undefined && meeting === 'read') return visibleJob(entry.doc, undefined);
  const state =
    known ??
    (await decideBatch(
      context,
      pending.batch,
      meeting === 'commit' && pending.solo ? 'committed' : 'aborted',
    ));
  return visibleJob(entry.doc, state);
}

/** A job read now, decided and with its sequence and any event wake folded in: what a write starts from. */
export interface CurrentJob {
  readonly job: StoredJob;
  readonly revision: number;
}

export async function readJob(
  context: NatsContext,
  id: string,
  meeting: Meeting = 'read',
): Promise<CurrentJob | undefined> {
  return (await readSlot(context, id, meeting)).current;
}

/** A job key read now: the visible job if any, and the revision a write over the key must name. */
export interface Slot {
  readonly current: CurrentJob | undefined;
  /**
   * 0 when the key holds nothing; otherwise the revision of what it holds: a doc (visible or
   * not) or a delete marker. A write over a marker names it, so it lands in ONE publish: a create
   * would be refused by the marker and made again (the client's own fallback), landing after the
   * writes issued after it, which breaks a batch's insertion order.
   */
  readonly revision: number;
}

export async function readSlot(
  context: NatsContext,
  id: string,
  meeting: Meeting = 'read',
): Promise<Slot> {
  const { entry, revision } = await readKey(context, id);
  if (entry === undefined) return { current: undefined, revision };
  const job = await resolveDoc(context, entry, meeting);
  if (job === undefined) return { current: undefined, revision: entry.revision };
  const seq = job.seq ?? entry.revision;
  const settled = settledFields(job, seq, context.index.wokenFor(job));
  return { current: { job: settled, revision: entry.revision }, revision: entry.revision };
}
