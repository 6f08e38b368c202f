import { randomUUID } from 'node:crypto';
import type { ScheduleRecord, ScheduleWrite } from '@berth/core/driver';
import { TimeoutError } from '@nats-io/transport-node';
import type { NatsContext } from './context.js';
import type { ScheduleTombstone, StoredSchedule } from './index/schedule-index.js';
import { decodeJson, encodeJson } from './record.js';
import {
  docOf,
  dropPayload,
  placePayload,
  readSchedule,
  type ScheduleOwner,
  type ScheduleRead,
  toRecord,
} from './schedule-doc.js';
import { deleteKey, writeKey } from './writes.js';

/** Times a put or remove re-reads and decides again when the key moved under it. */
const TRIES = 32;
/** Times a write whose answer was lost re-reads its key to decide whether it landed. */
const LOST_TRIES = 8;

/** A request that may have landed: its answer timed out, or its connection dropped first. */
const maybeLanded = (error: unknown): error is TimeoutError => error instanceof TimeoutError;

const gaveUp = (owner: ScheduleOwner): Error =>
  new Error(
    `the schedule ${JSON.stringify(owner.name)}${
      owner.tenantId === undefined ? '' : ` of tenant ${JSON.stringify(owner.tenantId)}`
    } kept changing under ${TRIES} tries`,
  );

const tombstone = (owner: ScheduleOwner, w: string): ScheduleTombstone => ({
  name: owner.name,
  ...(owner.tenantId === undefined ? {} : { tenantId: owner.tenantId }),
  w,
  gone: true,
});

/**
 * ONE conditional write of the schedule's key over the KV revision read: its new revision, or
 * undefined when the key had moved on (nothing written; the caller reads again and decides).
 * The mirror is told, so this process's next sync reads it.
 */
async function land(
  context: NatsContext,
  read: ScheduleRead,
  value: StoredSchedule,
): Promise<number | undefined> {
  try {
    const written = await writeKey(context.jobs, read.key, encodeJson(value), read.revision);
    if (written !== undefined) context.mirror.wrote(written);
    return written;
  } catch (error) {
    if (!maybeLanded(error)) throw error;
    return decideLost(context, read, value.w, error);
  }
}

/**
 * A write whose answer was lost (it may have landed, or may still land) reads the key again:
 * - the value names this write (`w`): it landed;
 * - the key is still at the revision read: the value is written over unchanged (a tombstone
 *   where none is), so the lost write, which names that revision, can never land afterwards, and
 *   the caller reads again and decides (its retry of the write is then the only one);
 * - the key moved on without naming it: it may have landed and been written over since, which no
 *   read can tell. The lost answer's error is thrown (DRIVER_UNAVAILABLE: maybe landed), and a
 *   caller retrying meets the stored revision as any stale writer does.
 */
async function decideLost(
  context: NatsContext,
  read: ScheduleRead,
  w: string,
  lost: TimeoutError,
): Promise<number | undefined> {
  for (let attempt = 0; attempt < LOST_TRIES; attempt += 1) {
    const entry = await context.jobs.get(read.key);
    const value = entry !== null && entry.operation === 'PUT' ? entry.value : undefined;
    const revision = entry?.revision ?? 0;
    if (value !== undefined && decodeJson<StoredSchedule>(value).w === w) {
      context.mirror.wrote(revision);
      return revision;
    }
    if (revision !== read.revision) throw lost;
    const fence = value ?? encodeJson(tombstone(read.owner, randomUUID()));
    try {
      const written = await writeKey(context.jobs, read.key, fence, read.revision);
      if (written !== undefined) {
        context.mirror.wrote(written);
        return undefined;
      }
    } catch (error) {
      if (!maybeLanded(error)) throw error;
    }
  }
  throw lost;
}

/**
 * Stores `write` when the stored record is at `revision` (0: none), as ONE conditional write of
 * its key; a write that finds the key moved (a racing writer, a fence) reads again and decides
 * again. A spilled payload's parts are written first and dropped when the put is known not to
 * have landed (a failure that may have landed keeps them); the replaced record's parts go after.
 */
export async function putSchedule(
  context: NatsContext,
  write: ScheduleWrite,
  revision: number,
): Promise<ScheduleRecord | undefined> {
  const content = await placePayload(context, write);
  let landed = false;
  try {
    for (let attempt = 0; attempt < TRIES; attempt += 1) {
      const read = await readSchedule(context, write);
      if ((read.doc?.revision ?? 0) !== revision) {
        await dropPayload(context, write, content.payloadPart);
        return undefined;
      }
      const now = context.clock.now();
      const kept = {
        revision: revision + 1,
        createdAt: read.doc?.createdAt ?? now,
        updatedAt: now,
      };
      const doc = docOf(write, content, kept, randomUUID());
      if ((await land(context, read, doc)) === undefined) continue;
      landed = true;
      if (read.doc?.payloadPart?.gen !== content.payloadPart?.gen) {
        await dropPayload(context, write, read.doc?.payloadPart);
      }
      return toRecord(doc, structuredClone(write.payload));
    }
  } catch (error) {
    // Only a write that may have landed can have a record naming the parts.
    if (!landed && !maybeLanded(error)) {
      await dropPayload(context, write, content.payloadPart).catch(() => undefined);
    }
    throw error;
  }
  // Every try found the key moved: no write of this call landed, so no record names the parts.
  await dropPayload(context, write, content.payloadPart);
  throw gaveUp(write);
}

/**
 * Removes the schedule when stored at `revision`: ONE conditional write of a tombstone over the
 * record decides it (it names its write, so a lost answer is decided as a put's is); the
 * tombstone is then deleted (a marker every watch sees, removed past its grace) and the
 * payload's parts dropped. A crash between leaves a tombstone, which reads as nothing.
 */
export async function removeSchedule(
  context: NatsContext,
  name: string,
  tenantId: string | undefined,
  revision: number,
): Promise<boolean> {
  const owner = { name, tenantId };
  for (let attempt = 0; attempt < TRIES; attempt += 1) {
    const read = await readSchedule(context, owner);
    if (read.doc === undefined || read.doc.revision !== revision) return false;
    const written = await land(context, read, tombstone(owner, randomUUID()));
    if (written === undefined) continue;
    await Promise.all([
      deleteKey(context.jobs, read.key, written).catch(() => false),
      dropPayload(context, owner, read.doc.payloadPart),
    ]);
    return true;
  }
  throw gaveUp(owner);
}
