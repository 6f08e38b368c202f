import { JetStreamApiCodes, JetStreamApiError, type JetStreamManager } from '@nats-io/jetstream';
import type { KV } from '@nats-io/kv';

/** True for the server's answer to a conditional write whose condition did not hold. */
export function isConflict(error: unknown): boolean {
  return (
    error instanceof JetStreamApiError &&
    (error.code === JetStreamApiCodes.StreamWrongLastSequence ||
      error.code === JetStreamApiCodes.StreamWrongLastSequenceUnknown)
  );
}

const orConflict = async <T>(write: Promise<T>): Promise<T | undefined> => {
  try {
    return await write;
  } catch (error) {
    if (isConflict(error)) return undefined;
    throw error;
  }
};

/**
 * The one atomic primitive: a write of one key conditioned on its last revision. Each answers
 * the new revision, or `undefined` when the key had moved on (nothing was written).
 */
export const createKey = (kv: KV, key: string, value: Uint8Array): Promise<number | undefined> =>
  orConflict(kv.create(key, value));

export const updateKey = (
  kv: KV,
  key: string,
  value: Uint8Array,
  revision: number,
): Promise<number | undefined> => orConflict(kv.update(key, value, revision));

/** Writes `value` over revision `revision`, or creates the key when `revision` is 0. */
export const writeKey = (
  kv: KV,
  key: string,
  value: Uint8Array,
  revision: number,
): Promise<number | undefined> =>
  revision === 0 ? createKey(kv, key, value) : updateKey(kv, key, value, revision);

/** Deletes the key if it is still at `revision` (a marker other watchers see); false otherwise. */
export async function deleteKey(kv: KV, key: string, revision: number): Promise<boolean> {
  return (await orConflict(kv.delete(key, { previousSeq: revision }).then(() => true))) === true;
}

/**
 * Removes a key of an unwatched bucket outright, leaving no delete marker behind; with
 * `revision`, only while that revision is still the newest (answers whether it went).
 */
export async function purgeKey(
  jsm: JetStreamManager,
  stream: string,
  subject: string,
  revision?: number,
): Promise<boolean> {
  const purged = await jsm.streams.purge(stream, {
    filter: subject,
    ...(revision === undefined ? {} : { seq: revision + 1 }),
  });
  return purged.purged > 0;
}
