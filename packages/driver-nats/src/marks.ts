import type { MarkStore } from '@berth/core/driver';
import type { NatsContext } from './context.js';
import { decideBatch, readDoc } from './docs.js';
import { decodeJson, encodeJson } from './record.js';
import { writeKey } from './writes.js';

/** Times an advance re-reads and decides again when a racing write of the mark got there first. */
const TRIES = 32;

/**
 * What a mark key (`m.<hash>` of the aux bucket) holds. `batch` and `id` name the `advanceMark`
 * enqueue whose write raised it to `value`: that write committed the batch's row `j.<id>` (see
 * enqueue-advancing.ts). A doc without `value` is a mark never raised, rewritten only to move
 * its revision.
 */
export interface MarkDoc {
  readonly name: string;
  readonly value?: number;
  readonly batch?: string;
  readonly id?: string;
}

/** A mark as read now: its doc (undefined when the key holds none) and its key's revision. */
export interface MarkEntry {
  readonly name: string;
  readonly doc: MarkDoc | undefined;
  /** 0 when the key was never written: a conditional write names it. */
  readonly revision: number;
}

/** The mark's value, or undefined while it was never raised. */
export const markValue = (entry: MarkEntry): number | undefined => entry.doc?.value;

export async function readMark(context: NatsContext, name: string): Promise<MarkEntry> {
  const entry = await context.aux.get(context.subjects.mark(name));
  const doc =
    entry !== null && entry.operation === 'PUT' ? decodeJson<MarkDoc>(entry.value) : undefined;
  return { name, doc: doc?.name === name ? doc : undefined, revision: entry?.revision ?? 0 };
}

/**
 * The batch decision of the enqueue the mark names, recorded if it is not yet: its mark write
 * committed it, and a writer stopped before recording `b.<batch>` left its row invisible to every
 * index. Done before any write moves the mark past that enqueue, and by every read of the mark,
 * so the row shows once anyone looks at the mark. A row that no longer names the batch needs no
 * record (the row was written since, or removed).
 */
export async function settleNamed(context: NatsContext, entry: MarkEntry): Promise<void> {
  const { batch, id } = entry.doc ?? {};
  if (batch === undefined || id === undefined || context.index.batch(batch) !== undefined) return;
  const row = await readDoc(context, id);
  if (row?.doc.pending?.batch === batch) await decideBatch(context, batch, 'committed');
}

/** One conditional write of the mark over the revision read; false when it moved meanwhile. */
async function put(context: NatsContext, entry: MarkEntry, doc: MarkDoc): Promise<boolean> {
  const key = context.subjects.mark(entry.name);
  return (await writeKey(context.aux, key, encodeJson(doc), entry.revision)) !== undefined;
}

/**
 * Raises the mark to `value` over the revision read, naming the enqueue it commits (`commit`)
 * or none. The enqueue the mark named before has its decision recorded first.
 */
export async function writeMark(
  context: NatsContext,
  entry: MarkEntry,
  value: number,
  commit?: { readonly batch: string; readonly id: string },
): Promise<boolean> {
  await settleNamed(context, entry);
  return put(context, entry, { name: entry.name, value, ...commit });
}

/**
 * Rewrites the mark as it stands, over the revision read: only its revision moves, so every
 * enqueue that read the old revision and has not written yet can never commit. The doc still
 * names the enqueue it named, so nothing has to be recorded first.
 */
export const bumpMark = (context: NatsContext, entry: MarkEntry): Promise<boolean> =>
  put(context, entry, entry.doc ?? { name: entry.name });

/**
 * Marks: each name is ONE key of the aux bucket, raised by one write conditioned on the revision
 * read. Of racing advances one write lands per revision; the others re-read and raise only if
 * their value is still higher, so the highest wins and each answers whether it moved the mark.
 * A read also records the decision of the enqueue the mark names (see `settleNamed`).
 */
export function createMarkStore(context: NatsContext): MarkStore {
  return {
    async get(name) {
      const entry = await readMark(context, name);
      await settleNamed(context, entry);
      return markValue(entry);
    },
    async advance(name, value) {
      for (let attempt = 0; attempt < TRIES; attempt += 1) {
        const entry = await readMark(context, name);
        const current = markValue(entry);
        if (current !== undefined && current >= value) return false;
        if (await writeMark(context, entry, value)) return true;
      }
      throw new Error(`mark ${JSON.stringify(name)} kept changing under ${TRIES} advances`);
    },
  };
}
