import type { MarkStore } from '@berth/core';
import type { NatsContext } from './context.js';
import { decodeJson, encodeJson } from './record.js';
import { writeKey } from './writes.js';

/** Times an advance re-reads and decides again when a racing advance got there first. */
const TRIES = 32;

interface MarkDoc {
  readonly name: string;
  readonly value: number;
}

/**
 * Marks: each name is ONE key of the aux bucket, raised by one write conditioned on the revision
 * read. Of racing advances one write lands per revision; the others re-read and raise only if
 * their value is still higher, so the highest wins and each answers whether it moved the mark.
 */
export function createMarkStore(context: NatsContext): MarkStore {
  const read = async (name: string) => {
    const entry = await context.aux.get(context.subjects.mark(name));
    const doc =
      entry !== null && entry.operation === 'PUT' ? decodeJson<MarkDoc>(entry.value) : undefined;
    return { value: doc?.name === name ? doc.value : undefined, revision: entry?.revision ?? 0 };
  };
  return {
    async get(name) {
      return (await read(name)).value;
    },
    async advance(name, value) {
      for (let attempt = 0; attempt < TRIES; attempt += 1) {
        const current = await read(name);
        if (current.value !== undefined && current.value >= value) return false;
        const doc: MarkDoc = { name, value };
        const key = context.subjects.mark(name);
        if ((await writeKey(context.aux, key, encodeJson(doc), current.revision)) !== undefined) {
          return true;
        }
      }
      throw new Error(`mark ${JSON.stringify(name)} kept changing under ${TRIES} advances`);
    },
  };
}
