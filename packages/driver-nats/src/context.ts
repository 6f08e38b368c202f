import type { Clock, DriverHooks } from '@berth/core/driver';
import type { JetStreamManager } from '@nats-io/jetstream';
import type { KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import type { BlobStore } from './blobs.js';
import type { JobIndex } from './index/job-index.js';
import type { LifecycleState } from './lifecycle-announce.js';
import type { LifecycleRepair } from './lifecycle-repair.js';
import type { Mirror } from './mirror.js';
import { decodeJson, encodeJson, type StoredDoc } from './record.js';
import type { SettleNotices } from './settle-notices.js';
import type { Subjects } from './subjects.js';
import type { Wake } from './wake.js';
import { deleteKey, purgeKey, writeKey } from './writes.js';

export const DRIVER = 'nats';

/** What every operation shares once the driver is connected. */
export interface NatsContext extends BlobStore {
  readonly subjects: Subjects;
  readonly clock: Clock;
  readonly hooks: DriverHooks;
  readonly nc: NatsConnection;
  readonly jsm: JetStreamManager;
  readonly jobs: KV;
  readonly aux: KV;
  readonly index: JobIndex;
  readonly mirror: Mirror;
  readonly wake: Wake;
  /** Where a change that settled jobs says so once it landed (`watchSettles`). */
  readonly settles: SettleNotices;
  /** The lifecycle stream and what this process knows of it. */
  readonly lifecycle: LifecycleState;
  /** The pass that publishes tails whose writer never did (lifecycle-repair.ts). */
  readonly repair: LifecycleRepair;
  /** How long delete markers stay in the jobs bucket before a purge removes them. */
  readonly markerGraceMs: number;
  /** Stops following the connection's status (on close). */
  stopStatus(): void;
}

/**
 * Writes a job key over `revision` (0: creates it); answers the new revision, or undefined when
 * the key had moved on. The index is told, so this process reads its own write.
 */
export async function writeJob(
  context: NatsContext,
  id: string,
  doc: StoredDoc,
  revision: number,
): Promise<number | undefined> {
  const written = await writeKey(context.jobs, context.subjects.job(id), encodeJson(doc), revision);
  if (written !== undefined) context.mirror.wrote(written);
  return written;
}

/** Deletes a job key if it is still at `revision`. */
export async function deleteJob(
  context: NatsContext,
  id: string,
  revision: number,
): Promise<boolean> {
  return deleteKey(context.jobs, context.subjects.job(id), revision);
}

/**
 * An aux key's JSON value by key, from the stream leader (a get, never a consumer that may sit on
 * a lagging replica); undefined when the key holds none.
 */
export async function readAuxJson<T>(context: NatsContext, key: string): Promise<T | undefined> {
  const entry = await context.aux.get(key);
  return entry === null || entry.operation !== 'PUT' ? undefined : decodeJson<T>(entry.value);
}

/** Removes an aux key outright (no marker: nothing watches that bucket); errors are ignored. */
export async function dropAux(context: NatsContext, key: string): Promise<void> {
  await purgeKey(context.jsm, context.subjects.auxStream, context.subjects.auxSubject(key)).catch(
    () => false,
  );
}

/** Removes every aux key under a subject filter (a run's steps, an owner's parts); best effort. */
export async function dropAuxUnder(context: NatsContext, filter: string): Promise<void> {
  await purgeKey(context.jsm, context.subjects.auxStream, filter).catch(() => false);
}
