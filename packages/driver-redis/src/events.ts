import {
  type EventBackend,
  type EventRecord,
  type FindEventOptions,
  type Json,
  matchesEvent,
  newEventRecord,
} from '@berth/core/driver';
import type { RedisContext } from './context.js';
import { asArray, asString } from './decode.js';
import { memberDigits } from './keys.js';
import { EVENT_PURGE_LUA, EVENT_WALK_LUA, PUBLISH_LUA, WAKE_MORE_LUA } from './lua/generated.js';
import { defineScript } from './scripts.js';

const PUBLISH = defineScript('publish', PUBLISH_LUA);
const WAKE_MORE = defineScript('wake-more', WAKE_MORE_LUA);
const EVENT_WALK = defineScript('event-walk', EVENT_WALK_LUA, { readOnly: true });
const EVENT_PURGE = defineScript('event-purge', EVENT_PURGE_LUA);

/** Events one script call scans at most. */
const WALK_BATCH = 500;

/** Expired events one `purgeExpired` call removes unless told otherwise (D2). */
const DEFAULT_EVENT_PURGE_LIMIT = 1_000;

/**
 * Walks unexpired events in batches, from `start`: of `name` (or all) in publish order, or of
 * `name` by (publishedAt, seq) for `time`, until `visit` answers true or the index runs out.
 */
async function walk(
  context: RedisContext,
  index: 'order' | 'time',
  name: string,
  start: string,
  visit: (event: EventRecord, seq: number) => boolean,
): Promise<void> {
  const now = context.clock.now();
  let bound = start;
  for (;;) {
    const [found, last] = asArray(
      await context.run(EVENT_WALK, now, [index, name, bound, WALK_BATCH]),
      'events',
    );
    for (const entry of asArray(found, 'events')) {
      const [text, seq] = asArray(entry, 'events');
      if (visit(JSON.parse(asString(text, 'events')) as EventRecord, Number(seq))) return;
    }
    const lastMember = asString(last, 'events');
    if (lastMember === '') return;
    bound = `(${lastMember}`;
  }
}

type RedisEventStore = Omit<EventBackend, 'purgeExpired'> & {
  purgeExpired(options?: { readonly limit?: number }): Promise<number>;
};

export function createEventStore(context: RedisContext): RedisEventStore {
  return {
    async publish(name: string, payload: Json, ttlMs: number) {
      const event = newEventRecord(name, payload, context.clock.now(), ttlMs);
      const now = event.publishedAt;
      const [seq, waiting] = asArray(
        await context.run(PUBLISH, now, [
          event.id,
          name,
          JSON.stringify(event),
          event.publishedAt,
          event.expiresAt,
        ]),
        'publish',
      );
      // The rest of the waiters, a bounded batch per script (claims carry on if this stops).
      for (let left = Number(waiting); left > 0; ) {
        left = Number(
          await context.run(WAKE_MORE, context.clock.now(), [String(seq), event.id, name]),
        );
      }
      return event;
    },
    /** The first in publish order of the events published at or after `after` that match. */
    async find(name: string, options: FindEventOptions) {
      let hit: { event: EventRecord; seq: number } | undefined;
      await walk(context, 'time', name, `[${memberDigits(options.after)}`, (event, seq) => {
        if (
          (hit === undefined || seq < hit.seq) &&
          options.exclude?.includes(event.id) !== true &&
          matchesEvent(event.payload, options.match)
        ) {
          hit = { event, seq };
        }
        return false;
      });
      return hit?.event;
    },
    async list(name?: string) {
      const events: EventRecord[] = [];
      await walk(context, 'order', name ?? '', '-', (event) => {
        events.push(event);
        return false;
      });
      return events;
    },
    async purgeExpired(options = {}) {
      const limit = options.limit ?? DEFAULT_EVENT_PURGE_LIMIT;
      return Number(await context.run(EVENT_PURGE, context.clock.now(), [limit]));
    },
  };
}
