import type { NatsContext } from './context.js';
import { decideBatch } from './docs.js';
import { bumpMark, readMark, writeMark } from './marks.js';
import type { BatchState, MarkCommit } from './record.js';

/** Times a decision re-reads the mark when another write moved it first. */
const TRIES = 32;

/** A pending create an `advanceMark` enqueue wrote: its batch commits only through the mark. */
export interface MarkedPending {
  readonly batch: string;
  readonly mark: MarkCommit;
  readonly id: string;
}

/**
 * What a reader that meets a marked row still in flight does: leaves it (`read`), commits it on
 * its writer's behalf with the very mark write the writer would make (`commit`: only for a row
 * its key's holder already points at), or makes sure it never commits (`kill`) before it writes
 * over the row or answers without it.
 */
export type MarkedIntent = 'read' | 'commit' | 'kill';

/**
 * The decision of a marked row's batch. The row committed iff the mark was written naming its
 * batch, conditioned on the revision the writer read (`mark.revision`); `b.<batch>` records the
 * decision for every index, created once, so the first record stands:
 * - the mark names the batch: committed;
 * - the mark's revision moved on without naming it: the write can never land (a write that did
 *   land and was then overwritten had its decision recorded before the overwrite, and that
 *   record stands): aborted;
 * - the revision is still the one read: in flight. `read` answers undefined; `commit` and `kill`
 *   write the mark over that revision (naming the batch, or as it stands) and so decide it.
 */
export async function decideMarked(
  context: NatsContext,
  pending: MarkedPending,
  intent: MarkedIntent,
): Promise<BatchState | undefined> {
  const { batch, mark } = pending;
  for (let attempt = 0; attempt < TRIES; attempt += 1) {
    const known = context.index.batch(batch);
    if (known !== undefined) return known;
    const entry = await readMark(context, mark.name);
    if (entry.doc?.batch === batch) return decideBatch(context, batch, 'committed');
    if (entry.revision !== mark.revision) return decideBatch(context, batch, 'aborted');
    if (intent === 'read') return undefined;
    if (intent === 'commit') {
      if (await writeMark(context, entry, mark.value, { batch, id: pending.id })) {
        return decideBatch(context, batch, 'committed');
      }
    } else if (await bumpMark(context, entry)) {
      return decideBatch(context, batch, 'aborted');
    }
  }
  throw new Error(`mark ${JSON.stringify(mark.name)} kept changing under ${TRIES} decisions`);
}
