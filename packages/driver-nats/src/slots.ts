import type { LeaseStore } from '@berth/core/driver';
import type { KvEntry } from '@nats-io/kv';
import type { NatsContext } from './context.js';
import { decodeJson, encodeJson } from './record.js';
import { purgeKey, writeKey } from './writes.js';

/**
 * Fleet slots. A key's `limit` slots are cut into shards of SHARD places: shard `i` of a key holds
 * at most `min(SHARD, limit - i * SHARD)` unexpired holders, so the shards' places add up to the
 * limit and the limit holds with no count kept anywhere. Each shard is ONE aux key, and every
 * change to it is one write conditioned on the revision read: taking, renewing or giving back a
 * slot is atomic, and no value grows past SHARD holders whatever the limit.
 *
 * A holder's pointer key names its shard (renew and release take no limit, so they cannot work
 * the shard out). The pointer is written before the holder enters its shard and the shard decides:
 * a pointer naming a shard without that holder is a holder that holds nothing. Expiry is
 * `expiresAt <= now`, read by whoever reads the shard next; whoever next writes a shard drops its
 * expired holders, and their pointers after them.
 *
 * Cost per call: a renew reads the pointer and the shard and writes the shard (3 messages); an
 * acquire reads the pointer and its first shard together, then writes the pointer and the shard (4;
 * a try again after another caller's write got there first writes only the shard); a release also
 * removes the pointer and voids the key's full marker (5). Only an acquire whose first shard is
 * full reads further: the key's full marker, which answers a refusal (3 reads in all), or when it
 * is void (a release or an expiry since it was written) every shard again, in growing parallel
 * rounds (those this process saw full last): a refusal then costs ceil(limit / SHARD) more reads
 * and writes the marker, which answers the next ones.
 */
export const SHARD = 64;

/** Conflicts one call goes through before it gives up: each one is another caller's write landing. */
const MAX_CONFLICTS = 1_000;

/** Shards one process remembers seeing full (forgotten all at once past this). */
const MAX_SEEN_FULL = 10_000;

interface ShardDoc {
  readonly key: string;
  /** Holder → [expiresAt, the revision of its pointer]. */
  readonly holders: Readonly<Record<string, readonly [number, number]>>;
}

/**
 * A key's full marker: every shard of `limit` was read full, by reads that began after the last
 * release, and stays so until `until` (its earliest holder's expiry) at the latest. A refusal
 * reads it instead of every shard; each release voids it after giving its slot back.
 */
interface FullDoc {
  readonly key: string;
  readonly limit: number;
  readonly until: number;
}

interface PointerDoc {
  readonly key: string;
  readonly holder: string;
  readonly shard: number;
}

interface Shard {
  readonly index: number;
  readonly revision: number;
  /** Unexpired holders. */
  readonly live: Record<string, readonly [number, number]>;
  /** Expired holders still written in the shard: their pointers go once the shard is rewritten. */
  readonly expired: readonly (readonly [string, number])[];
}

/** FNV-1a: where a holder starts looking, spread over the shards. */
function spread(text: string): number {
  let hash = 0x811c9dc5;
  for (let at = 0; at < text.length; at += 1) {
    hash = Math.imul(hash ^ text.charCodeAt(at), 0x01000193);
  }
  return hash >>> 0;
}

export function createSlotStore(
  context: NatsContext,
): Pick<LeaseStore, 'acquireSlot' | 'renewSlot' | 'releaseSlot'> {
  const { aux, jsm, subjects } = context;
  const shardKey = (key: string, index: number) => subjects.slotShard(key, index);
  const pointerKey = (key: string, holder: string) => subjects.slotHolder(key, holder);

  const decoded = <T>(entry: KvEntry | null): T | undefined =>
    entry !== null && entry.operation === 'PUT' ? decodeJson<T>(entry.value) : undefined;

  async function readShard(key: string, index: number, now: number): Promise<Shard> {
    const entry = await aux.get(shardKey(key, index));
    const doc = decoded<ShardDoc>(entry);
    const live: Record<string, readonly [number, number]> = {};
    const expired: [string, number][] = [];
    for (const [holder, held] of Object.entries(doc?.key === key ? doc.holders : {})) {
      if (held[0] > now) live[holder] = held;
      else expired.push([holder, held[1]]);
    }
    return { index, revision: entry?.revision ?? 0, live, expired };
  }

  async function readPointer(key: string, holder: string) {
    const entry = await aux.get(pointerKey(key, holder));
    const doc = decoded<PointerDoc>(entry);
    return doc?.key === key && doc.holder === holder
      ? { shard: doc.shard, revision: entry?.revision ?? 0 }
      : undefined;
  }

  /**
   * Writes the shard's live holders as `holders` over the revision read (removing the key when
   * none is left); answers whether it landed, and drops the pointers of the expired holders it
   * wrote out.
   */
  async function writeShard(
    key: string,
    shard: Shard,
    holders: Record<string, readonly [number, number]>,
  ): Promise<boolean> {
    const name = shardKey(key, shard.index);
    const landed =
      Object.keys(holders).length === 0
        ? shard.revision === 0 ||
          (await purgeKey(jsm, subjects.auxStream, subjects.auxSubject(name), shard.revision))
        : (await writeKey(
            aux,
            name,
            encodeJson({ key, holders } satisfies ShardDoc),
            shard.revision,
          )) !== undefined;
    if (landed) {
      await Promise.all(
        shard.expired.map(([holder, revision]) => dropPointer(key, holder, revision)),
      );
    }
    return landed;
  }

  /** Removes a holder's pointer unless it was written again after `revision`. */
  const dropPointer = (key: string, holder: string, revision: number) =>
    purgeKey(jsm, subjects.auxStream, subjects.auxSubject(pointerKey(key, holder)), revision).catch(
      () => false,
    );

  /**
   * Changes the holder's unexpired slot with `change` (its new expiry, or undefined to give it
   * back); false when the holder has none.
   */
  async function own(
    key: string,
    holder: string,
    change: (now: number) => number | undefined,
  ): Promise<boolean> {
    for (let conflict = 0; conflict < MAX_CONFLICTS; conflict += 1) {
      const pointer = await readPointer(key, holder);
      if (pointer === undefined) return false;
      const now = context.clock.now();
      const shard = await readShard(key, pointer.shard, now);
      const held = shard.live[holder];
      if (held === undefined) return false;
      const { [holder]: _mine, ...others } = shard.live;
      const expiresAt = change(now);
      const holders =
        expiresAt === undefined ? others : { ...others, [holder]: [expiresAt, held[1]] as const };
      if (await writeShard(key, shard, holders)) {
        if (expiresAt === undefined) await dropPointer(key, holder, held[1]);
        return true;
      }
    }
    throw new Error(`slot key ${key} kept changing under ${MAX_CONFLICTS} writes`);
  }

  /**
   * Shards this process saw full, and until when that holds at the latest (their earliest
   * expiry): where an acquire looks last. Advisory: a refusal reads them again first.
   */
  const seenFull = new Map<string, { until: number; live: number }>();
  const fullKey = (key: string, index: number) => `${index}\n${key}`;
  const note = (key: string, shard: Shard) => {
    const expiries = Object.values(shard.live).map(([at]) => at);
    if (seenFull.size >= MAX_SEEN_FULL) seenFull.clear();
    seenFull.set(fullKey(key, shard.index), {
      until: Math.min(...expiries),
      live: expiries.length,
    });
  };

  async function readMarker(key: string) {
    const entry = await aux.get(subjects.slotFull(key));
    const doc = decoded<FullDoc>(entry);
    return { revision: entry?.revision ?? 0, full: doc?.key === key ? doc : undefined };
  }

  /** Voids the key's full marker: a write, so a marker decided from reads before it cannot land. */
  const voidMarker = (key: string) =>
    aux.put(subjects.slotFull(key), encodeJson({ key, limit: 0, until: 0 } satisfies FullDoc));

  /**
   * A shard of the limit with room, looking at shard `start`, then at the others in order (those this
   * process saw full last), in growing parallel rounds; or, when every one is full, the earliest
   * expiry among their holders (until when the key stays full).
   */
  async function lookFor(
    key: string,
    count: number,
    placesOf: (index: number) => number,
    start: number,
    now: number,
  ): Promise<{ readonly room: Shard } | { readonly until: number }> {
    const rest = Array.from({ length: count - 1 }, (_, at) => (start + 1 + at) % count);
    const known = (index: number) => {
      const seen = seenFull.get(fullKey(key, index));
      return seen !== undefined && seen.until > now && seen.live >= placesOf(index);
    };
    const order = [...rest.filter((index) => !known(index)), ...rest.filter(known)];
    let until = Number.POSITIVE_INFINITY;
    let round: readonly Shard[] = [await readShard(key, start, now)];
    for (let next = 0, size = 4; ; size *= 2) {
      for (const shard of round) {
        if (Object.keys(shard.live).length < placesOf(shard.index)) return { room: shard };
        note(key, shard);
        until = Math.min(until, ...Object.values(shard.live).map(([at]) => at));
      }
      if (next >= order.length) return { until };
      const indexes = order.slice(next, next + size);
      next += indexes.length;
      round = await Promise.all(indexes.map((index) => readShard(key, index, now)));
    }
  }

  async function acquireSlot(key: string, limit: number, holder: string, ttlMs: number) {
    const count = Math.ceil(limit / SHARD);
    const placesOf = (index: number) => Math.min(SHARD, limit - index * SHARD);
    const start = spread(holder) % count;
    for (let conflict = 0; conflict < MAX_CONFLICTS; conflict += 1) {
      const now = context.clock.now();
      const [pointer, first] = await Promise.all([
        readPointer(key, holder),
        readShard(key, start, now),
      ]);
      // A holder with an unexpired slot renews it, wherever it is and whatever the limit.
      if (pointer !== undefined) {
        const home = pointer.shard === start ? first : await readShard(key, pointer.shard, now);
        const held = home.live[holder];
        if (held !== undefined) {
          const holders = { ...home.live, [holder]: [now + ttlMs, held[1]] as const };
          if (await writeShard(key, home, holders)) return true;
          continue;
        }
      }
      const room = Object.keys(first.live).length < placesOf(start);
      if (room && (await place(key, first, holder, now + ttlMs, pointer))) return true;
      if (room) continue;
      const marker = await readMarker(key);
      const { full } = marker;
      if (full !== undefined && full.limit >= limit && full.until > now) return false;
      // Every shard is read after the marker, the first one again: a release that landed
      // before the marker read is seen, and one after it voids the marker this would write.
      const looked = await lookFor(key, count, placesOf, start, now);
      if ('until' in looked) {
        // Full: noted for the next acquire, unless a release voided the marker since it was read.
        const doc: FullDoc = { key, limit, until: looked.until };
        await writeKey(aux, subjects.slotFull(key), encodeJson(doc), marker.revision);
        return false;
      }
      if (await place(key, looked.room, holder, now + ttlMs, pointer)) return true;
    }
    throw new Error(`slot key ${key} kept changing under ${MAX_CONFLICTS} writes`);
  }

  /**
   * Puts `holder` into `shard`, which has room; false when the shard moved under the write. The
   * pointer is written first, unless the one read already names this shard (a try again after a
   * conflict: a pointer naming a shard without its holder holds nothing, so it may stay) and the
   * shard holds no expired entry of this holder, whose pointer the write drops at that revision.
   */
  async function place(
    key: string,
    shard: Shard,
    holder: string,
    expiresAt: number,
    read: { readonly shard: number; readonly revision: number } | undefined,
  ) {
    const pointer =
      read?.shard === shard.index && !shard.expired.some(([expired]) => expired === holder)
        ? read.revision
        : await aux.put(
            pointerKey(key, holder),
            encodeJson({ key, holder, shard: shard.index } satisfies PointerDoc),
          );
    const holders = { ...shard.live, [holder]: [expiresAt, pointer] as const };
    return writeShard(key, shard, holders);
  }

  return {
    acquireSlot,
    renewSlot: (key, holder, ttlMs) => own(key, holder, (now) => now + ttlMs),
    releaseSlot: async (key, holder) => {
      if (!(await own(key, holder, () => undefined))) return false;
      await voidMarker(key);
      return true;
    },
  };
}
