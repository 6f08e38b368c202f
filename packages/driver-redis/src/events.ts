import { randomUUID } from 'node:crypto';
import {
  DEFAULT_EVENT_TTL_MS,
  type EventRecord,
  type EventStore,
  type FindEventOptions,
  type Json,
  matchesEvent,
  type PublishOptions,
} from '@berth/core';
import type { RedisContext } from './context.js';
import { asArray, asString } from './decode.js';
import { memberDigits } from './keys.js';
import { EVENT_PURGE_LUA, EVENT_WALK_LUA, PUBLISH_LUA } from './lua/events.js';
import { defineScript } from './scripts.js';

const PUBLISH = defineScript('publish', PUBLISH_LUA);
const EVENT_WALK = defineScript('event-walk', EVENT_WALK_LUA);
const EVENT_PURGE = defineScript('event-purge', EVENT_PURGE_LUA);

/** Events one script call scans, or purges, at most. */
const BATCH = 500;

/**
 * Walks unexpired events of `name` (or all) in publish order from `start`, batch by batch, until
 * `visit` answers true or the index runs out.
 */
async function walk(
  context: RedisContext,
  name: string,
  start: string,
  visit: (event: EventRecord) => boolean,
): Promise<void> {
  const now = context.clock.now();
  let bound = start;
  for (;;) {
    const [found, last] = asArray(
      await context.run(EVENT_WALK, now, [name, bound, BATCH]),
      'events',
    );
    for (const text of asArray(found, 'events')) {
      if (visit(JSON.parse(asString(text, 'events')) as EventRecord)) return;
    }
    const lastMember = asString(last, 'events');
    if (lastMember === '') return;
    bound = `(${lastMember}`;
  }
}

export function createEventStore(context: RedisContext): EventStore {
  return {
    async publish(name: string, payload: Json, options: PublishOptions = {}) {
      const now = context.clock.now();
      const event: EventRecord = {
        id: randomUUID(),
        name,
        payload,
        publishedAt: now,
        expiresAt: now + (options.ttl ?? DEFAULT_EVENT_TTL_MS),
      };
      await context.run(PUBLISH, now, [
        event.id,
        name,
        JSON.stringify(event),
        event.publishedAt,
        event.expiresAt,
      ]);
      return event;
    },
    async find(name: string, options: FindEventOptions) {
      let hit: EventRecord | undefined;
      await walk(context, name, `[${memberDigits(options.after)}`, (event) => {
        if (!matchesEvent(event.payload, options.match)) return false;
        if (options.exclude?.includes(event.id) === true) return false;
        hit = event;
        return true;
      });
      return hit;
    },
    async list(name?: string) {
      const events: EventRecord[] = [];
      await walk(context, name ?? '', '-', (event) => {
        events.push(event);
        return false;
      });
      return events;
    },
    async purgeExpired() {
      const now = context.clock.now();
      let total = 0;
      for (;;) {
        const removed = Number(await context.run(EVENT_PURGE, now, [BATCH]));
        total += removed;
        if (removed < BATCH) return total;
      }
    },
  };
}
