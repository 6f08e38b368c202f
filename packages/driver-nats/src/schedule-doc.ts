import type { Json, ScheduleRecord, ScheduleWrite } from '@berth/core/driver';
import { SPILL_AT, writeBlob } from './blobs.js';
import { dropAux, type NatsContext } from './context.js';
import { isLive, type ScheduleDoc, type StoredSchedule } from './index/schedule-index.js';
import { type BlobRef, decodeJson, encodeJson } from './record.js';

/** Whose schedule a key holds. */
export interface ScheduleOwner {
  readonly name: string;
  readonly tenantId?: string | undefined;
}

/** A schedule key as read now from the bucket (the newest value, not the mirror's). */
export interface ScheduleRead {
  readonly owner: ScheduleOwner;
  readonly key: string;
  /** The record; undefined when the key holds none (nothing, a marker, a tombstone). */
  readonly doc: ScheduleDoc | undefined;
  /** The value stored, as stored (a fence writes it over unchanged); undefined when none. */
  readonly value: Uint8Array | undefined;
  /** The key's KV revision; 0 when it holds nothing: a conditional write then creates it. */
  readonly revision: number;
}

/** Where a schedule's payload is: inline, or in parts of the aux bucket. */
export type ScheduleContent =
  | { readonly payload: Json; readonly payloadPart?: undefined }
  | { readonly payload?: undefined; readonly payloadPart: BlobRef };

const sameOwner = (owner: ScheduleOwner, stored: StoredSchedule): boolean =>
  stored.name === owner.name && stored.tenantId === owner.tenantId;

export async function readSchedule(
  context: NatsContext,
  owner: ScheduleOwner,
): Promise<ScheduleRead> {
  const key = context.subjects.schedule(owner.name, owner.tenantId);
  const entry = await context.jobs.get(key);
  const value = entry !== null && entry.operation === 'PUT' ? entry.value : undefined;
  const stored = value === undefined ? undefined : decodeJson<StoredSchedule>(value);
  // A key holding another schedule's value (a hash clash) reads as none.
  const doc = isLive(stored) && sameOwner(owner, stored) ? stored : undefined;
  return { owner, key, doc, value, revision: entry?.revision ?? 0 };
}

/** The record a put stores: the write's fields, optional ones absent when unset. */
export function docOf(
  write: ScheduleWrite,
  content: ScheduleContent,
  kept: { readonly revision: number; readonly createdAt: number; readonly updatedAt: number },
  w: string,
): ScheduleDoc {
  return {
    name: write.name,
    ...(write.tenantId === undefined ? {} : { tenantId: write.tenantId }),
    cron: write.cron,
    ...(write.timezone === undefined ? {} : { timezone: write.timezone }),
    job: write.job,
    ...(write.queue === undefined ? {} : { queue: write.queue }),
    ...(content.payloadPart === undefined
      ? { payload: content.payload }
      : { payloadPart: content.payloadPart }),
    ...(write.priority === undefined ? {} : { priority: write.priority }),
    ...(write.maxAttempts === undefined ? {} : { maxAttempts: write.maxAttempts }),
    paused: write.paused,
    nextAt: write.nextAt,
    ...kept,
    w,
  };
}

/** The record as every call answers it, in the order the memory driver builds it. */
export const toRecord = (doc: ScheduleDoc, payload: Json): ScheduleRecord => ({
  name: doc.name,
  ...(doc.tenantId === undefined ? {} : { tenantId: doc.tenantId }),
  cron: doc.cron,
  ...(doc.timezone === undefined ? {} : { timezone: doc.timezone }),
  job: doc.job,
  ...(doc.queue === undefined ? {} : { queue: doc.queue }),
  payload,
  ...(doc.priority === undefined ? {} : { priority: doc.priority }),
  ...(doc.maxAttempts === undefined ? {} : { maxAttempts: doc.maxAttempts }),
  paused: doc.paused,
  nextAt: doc.nextAt,
  revision: doc.revision,
  createdAt: doc.createdAt,
  updatedAt: doc.updatedAt,
});

const ownerOf = (context: NatsContext, doc: ScheduleOwner): string =>
  context.subjects.scheduleOwner(doc.name, doc.tenantId);

/**
 * The write's payload, inline when small; a larger one (a record is mirrored by every process,
 * and a message has a size cap) is written in parts BEFORE any record names them.
 */
export async function placePayload(
  context: NatsContext,
  write: ScheduleWrite,
): Promise<ScheduleContent> {
  const bytes = encodeJson(write.payload);
  if (bytes.length <= SPILL_AT) return { payload: write.payload };
  return { payloadPart: await writeBlob(context, ownerOf(context, write), 'payload', bytes) };
}

/** Removes the parts of a payload no record names any more (best effort: else garbage). */
export async function dropPayload(
  context: NatsContext,
  owner: ScheduleOwner,
  ref: BlobRef | undefined,
): Promise<void> {
  if (ref === undefined) return;
  const at = ownerOf(context, owner);
  await Promise.all(
    Array.from({ length: ref.parts }, (_, part) =>
      dropAux(context, context.subjects.blob(at, 'payload', ref.gen, part)),
    ),
  );
}

/**
 * The record's payload, a copy of its own; undefined when one of its parts is gone: the record
 * was replaced or removed since it was read (its parts go after), so the caller reads again.
 */
export async function payloadOf(
  context: NatsContext,
  doc: ScheduleDoc,
): Promise<{ readonly payload: Json } | undefined> {
  const ref = doc.payloadPart;
  if (ref === undefined) return { payload: structuredClone(doc.payload ?? null) };
  const at = ownerOf(context, doc);
  const chunks = await Promise.all(
    Array.from({ length: ref.parts }, (_, part) =>
      context.aux.get(context.subjects.blob(at, 'payload', ref.gen, part)),
    ),
  );
  const values: Uint8Array[] = [];
  for (const chunk of chunks) {
    if (chunk === null || chunk.operation !== 'PUT') return undefined;
    values.push(chunk.value);
  }
  return { payload: decodeJson<Json>(Buffer.concat(values)) };
}
