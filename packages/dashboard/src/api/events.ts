import type { EventsResponse } from '../api-types.js';
import type { RequestContext } from '../http/context.js';

/** Events the page shows, newest first; `names` counts every live event read. */
export const EVENTS_SHOWN = 200;

/**
 * Live events, all or of one name. `events.list` answers every live event (the store keeps each
 * only until its ttl), so that is what one request reads; the page shows the newest 200.
 * Events carry no tenant: a tenant-scoped dashboard shows none.
 */
export async function events(context: RequestContext): Promise<EventsResponse> {
  const name = context.query.get('name') || undefined;
  if (context.tenantId !== undefined) {
    return { name: name ?? null, names: [], events: [], total: 0, limit: EVENTS_SHOWN };
  }
  const all = await context.options.driver.events.list(name);
  const names = new Map<string, { name: string; count: number; last: number }>();
  for (const event of all) {
    const entry = names.get(event.name) ?? { name: event.name, count: 0, last: 0 };
    entry.count += 1;
    entry.last = Math.max(entry.last, event.publishedAt);
    names.set(event.name, entry);
  }
  const newest = all.slice(-EVENTS_SHOWN).reverse();
  return {
    name: name ?? null,
    names: [...names.values()].sort((a, b) => b.last - a.last),
    events: newest.map((event) => ({
      id: event.id,
      name: event.name,
      payload: event.payload,
      publishedAt: event.publishedAt,
      expiresAt: event.expiresAt,
    })),
    total: all.length,
    limit: EVENTS_SHOWN,
  };
}
