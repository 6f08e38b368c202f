import { randomUUID } from 'node:crypto';
import type { Json } from '@berth/core/driver';
import type { KV } from '@nats-io/kv';
import { type BlobRef, decodeJson, encodeJson, type Spill, type StoredJob } from './record.js';
import type { Subjects } from './subjects.js';

/**
 * Content too large to sit in its record. A record is rewritten on every change and mirrored by
 * every process, and a NATS message has a size cap (1 MiB by default), so a payload or result
 * over SPILL_AT bytes of JSON is written in parts to the aux bucket BEFORE the record that names
 * it: a record never names parts that are not there. Parts no record names (a write that lost
 * its race, a crash between the two writes) are garbage, removed with their owner's purge.
 */
export const SPILL_AT = 16_384;

export interface BlobStore {
  readonly aux: KV;
  readonly subjects: Subjects;
  /** Bytes per part: under the server's message cap. */
  readonly partBytes: number;
}

export async function writeBlob(
  store: BlobStore,
  owner: string,
  field: string,
  bytes: Uint8Array,
): Promise<BlobRef> {
  const gen = randomUUID().slice(0, 8);
  const parts = Math.max(1, Math.ceil(bytes.length / store.partBytes));
  await Promise.all(
    Array.from({ length: parts }, (_, part) =>
      store.aux.put(
        store.subjects.blob(owner, field, gen, part),
        bytes.subarray(part * store.partBytes, (part + 1) * store.partBytes),
      ),
    ),
  );
  return { gen, parts };
}

export async function readBlob(
  store: BlobStore,
  owner: string,
  field: string,
  ref: BlobRef,
): Promise<Json> {
  const chunks = await Promise.all(
    Array.from({ length: ref.parts }, async (_, part) => {
      const entry = await store.aux.get(store.subjects.blob(owner, field, ref.gen, part));
      if (entry === null || entry.operation !== 'PUT') {
        throw new Error(`part ${part} of ${owner}'s ${field} is missing`);
      }
      return entry.value;
    }),
  );
  return decodeJson<Json>(Buffer.concat(chunks));
}

type Content = 'payload' | 'result';

/** The record with each oversized content field moved into parts; small ones stay inline. */
export async function spillJob(store: BlobStore, job: StoredJob): Promise<StoredJob> {
  let out = job;
  for (const field of ['payload', 'result'] as const) {
    const value = out[field];
    if (value === undefined) continue;
    const bytes = encodeJson(value);
    if (bytes.length <= SPILL_AT) continue;
    const ref = await writeBlob(store, job.id, field, bytes);
    const { [field]: _moved, ...rest } = out;
    out = { ...rest, spill: { ...out.spill, [field]: ref } as Spill };
  }
  return out;
}

/** The record with spilled content read back in, as answers carry it. */
export async function hydrateJob(store: BlobStore, job: StoredJob): Promise<StoredJob> {
  const { spill } = job;
  if (spill === undefined) return job;
  const { spill: _spill, ...rest } = job;
  const filled: Partial<Record<Content, Json>> = {};
  await Promise.all(
    (['payload', 'result'] as const).map(async (field) => {
      const ref = spill[field];
      if (ref !== undefined) filled[field] = await readBlob(store, job.id, field, ref);
    }),
  );
  return { ...rest, ...filled };
}
