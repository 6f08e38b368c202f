import {
  DEFAULT_PURGE_LIMIT,
  type EventBackend,
  type FindEventOptions,
  type Json,
  matchesEvent,
  newEventRecord,
} from '@berth/core/driver';
import { dropAuxUnder, type NatsContext, writeJob } from './context.js';
import { collectMarkers } from './delete-markers.js';
import { eventOf, storedEventOf } from './events-codec.js';
import type { EventEntry } from './index/event-index.js';
import { effectiveJob } from './index/row.js';
import { encodeJson } from './record.js';
import { deleteKey, writeKey } from './writes.js';

/** Expired events one purge round removes at most. */
const PURGE_BATCH = 500;

/**
 * Before the newest event of a name goes, the waiters it woke get its wake written into their
 * own records (runAt, updatedAt, and the revision they have seen), so removing it wakes nobody
 * less. Each is one conditional write; a waiter that moved on meanwhile needs none.
 */
async function keepWakes(context: NatsContext, name: string, newest: EventEntry): Promise<void> {
  await Promise.all(
    context.index.waitersOf(name).map(async (row) => {
      if (row.woken?.eventSeq !== newest.seq) return;
      await writeJob(context, row.id, { job: effectiveJob(row) }, row.revision);
    }),
  );
}

/**
 * Events live in the jobs bucket beside the jobs, so one watch orders both: a stored event wakes
 * the rows suspended on its name by its own write (a waiter is due once an event of its name
 * above the revision it suspended at is stored), which is the publish and the wake-up in ONE
 * change, with no per-waiter write.
 */
export function createEventStore(context: NatsContext): EventBackend {
  // The index is read through the context at each use: a replay replaces it.
  const { mirror } = context;
  return {
    async publish(name: string, payload: Json, ttlMs: number) {
      const event = newEventRecord(name, payload, context.clock.now(), ttlMs);
      const stored = await storedEventOf(context, event);
      const revision = await writeKey(
        context.jobs,
        context.subjects.event(event.id),
        encodeJson(stored),
        0,
      );
      if (revision === undefined) throw new Error(`event id ${event.id} was taken`);
      mirror.wrote(revision);
      await mirror.syncOwn();
      const woke = context.index.waitersOf(name).filter((row) => row.woken?.eventSeq === revision);
      context.wake.publish(woke.map((row) => row.job.queue));
      return structuredClone(event);
    },
    async find(name: string, options: FindEventOptions) {
      await mirror.syncFull();
      for (const entry of context.index.events.since(name, options.after, context.clock.now())) {
        if (options.exclude?.includes(entry.event.id) === true) continue;
        if (options.match === undefined) return eventOf(context, entry.event);
        const event = await eventOf(context, entry.event);
        if (matchesEvent(event.payload, options.match)) return event;
      }
      return undefined;
    },
    async list(name?: string) {
      await mirror.syncFull();
      const live = [...context.index.events.live(name, context.clock.now())];
      return Promise.all(live.map((entry) => eventOf(context, entry.event)));
    },
    async purgeExpired(options: { readonly limit?: number } = {}) {
      const limit = options.limit ?? DEFAULT_PURGE_LIMIT;
      let total = 0;
      const tried = new Set<string>();
      for (;;) {
        await mirror.syncFull();
        const now = context.clock.now();
        const round = Math.min(PURGE_BATCH, limit - total);
        const expired = context.index.events
          .expired(now, round + tried.size)
          .filter((entry) => !tried.has(entry.event.id))
          .slice(0, round);
        if (expired.length === 0) {
          await collectMarkers(context);
          return total;
        }
        for (const name of new Set(expired.map((entry) => entry.event.name))) {
          const newest = context.index.events.latest(name);
          if (newest !== undefined && expired.includes(newest))
            await keepWakes(context, name, newest);
        }
        const removed = await Promise.all(
          expired.map(async (entry) => {
            tried.add(entry.event.id);
            const gone = await deleteKey(
              context.jobs,
              context.subjects.event(entry.event.id),
              entry.seq,
            );
            if (gone && entry.event.spill !== undefined) {
              await dropAuxUnder(context, context.subjects.blobsOf(entry.event.id));
            }
            return gone;
          }),
        );
        total += removed.filter(Boolean).length;
      }
    },
  };
}
