import { KEYED_JOB } from '../child/jobs.ts';
import type { LedgerEvent } from '../ledger/events.ts';

interface Holder {
  readonly id: string;
  readonly start: number;
  end: number;
  readonly units: number[];
}

/**
 * Units of work a handler did while a later admission to the same key (limit 1) was running:
 * the limit exceeded. A handler's first unit after a silence longer than the lease is forgiven:
 * a stopped process wakes with that unit already due and cannot know it stalled before it runs.
 */
export function overLimitUnits(events: readonly LedgerEvent[], leaseMs: number): number {
  const byKey = new Map<string, Map<string, Holder>>();
  const keyOf = new Map<string, string>();
  for (const event of events) {
    if (event.name !== KEYED_JOB) continue;
    if (event.ev === 'start' || event.ev === 'unit') keyOf.set(event.job, event.key);
    const key = keyOf.get(event.job);
    if (key === undefined) continue;
    const holders = byKey.get(key) ?? new Map<string, Holder>();
    byKey.set(key, holders);
    const id = `${event.job}:${event.claim}`;
    if (event.ev === 'start') holders.set(id, { id, start: event.t, end: Infinity, units: [] });
    const holder = holders.get(id);
    if (holder === undefined) continue;
    if (event.ev === 'unit') holder.units.push(event.t);
    if (event.ev === 'end') holder.end = event.t;
  }
  let over = 0;
  for (const holders of byKey.values()) {
    const all = [...holders.values()];
    for (const holder of all) {
      let previous = holder.start;
      for (const t of holder.units) {
        const forgiven = t - previous > leaseMs;
        previous = t;
        if (forgiven) continue;
        const later = all.some(
          (other) =>
            other !== holder && other.start > holder.start && other.start < t && t < other.end,
        );
        if (later) over++;
      }
    }
  }
  return over;
}
