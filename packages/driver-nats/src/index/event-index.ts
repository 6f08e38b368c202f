import type { StoredEvent } from '../events-codec.js';
import { SortedList } from './sorted-list.js';

/** An event as the index holds it: the stored record and its revision (publish order). */
export interface EventEntry {
  readonly event: StoredEvent;
  readonly seq: number;
}

const bySeq = (a: EventEntry, b: EventEntry): number => a.seq - b.seq;
const byExpiry = (a: EventEntry, b: EventEntry): number =>
  a.event.expiresAt - b.event.expiresAt || a.seq - b.seq;

interface Named {
  readonly bySeq: SortedList<EventEntry>;
}

/**
 * Stored events, mirrored from the jobs bucket: all in publish order, per name in publish order,
 * and by expiry for the purge. Expired events stay until purged;
 * reads leave them out.
 */
export class EventIndex {
  private readonly entries = new Map<string, EventEntry>();
  private readonly all = new SortedList<EventEntry>(bySeq);
  private readonly expiry = new SortedList<EventEntry>(byExpiry);
  private readonly named = new Map<string, Named>();

  get(id: string): EventEntry | undefined {
    return this.entries.get(id);
  }

  put(entry: EventEntry): void {
    this.remove(entry.event.id);
    this.entries.set(entry.event.id, entry);
    this.all.insert(entry);
    this.expiry.insert(entry);
    let named = this.named.get(entry.event.name);
    if (named === undefined) {
      named = { bySeq: new SortedList(bySeq) };
      this.named.set(entry.event.name, named);
    }
    named.bySeq.insert(entry);
  }

  remove(id: string): EventEntry | undefined {
    const entry = this.entries.get(id);
    if (entry === undefined) return undefined;
    this.entries.delete(id);
    this.all.delete(entry);
    this.expiry.delete(entry);
    const named = this.named.get(entry.event.name);
    if (named !== undefined) {
      named.bySeq.delete(entry);
      if (named.bySeq.size === 0) this.named.delete(entry.event.name);
    }
    return entry;
  }

  /** The newest event of `name` by publish order: the one whose instant a woken waiter reads. */
  latest(name: string): EventEntry | undefined {
    const named = this.named.get(name);
    if (named === undefined) return undefined;
    for (const entry of named.bySeq.descending()) return entry;
    return undefined;
  }

  /**
   * Unexpired events of `name` published at or after `after`, in publish order: `publishedAt`
   * filters but never orders, so publishers on skewed clocks do not reorder.
   */
  *since(name: string, after: number, now: number): Generator<EventEntry> {
    const named = this.named.get(name);
    if (named === undefined) return;
    for (const entry of named.bySeq.ascending()) {
      if (entry.event.expiresAt > now && entry.event.publishedAt >= after) yield entry;
    }
  }

  /** Unexpired events (all, or of `name`) in publish order. */
  *live(name: string | undefined, now: number): Generator<EventEntry> {
    const source = name === undefined ? this.all : this.named.get(name)?.bySeq;
    for (const entry of source?.ascending() ?? []) {
      if (entry.event.expiresAt > now) yield entry;
    }
  }

  /** Up to `limit` expired events, soonest expiry first. */
  expired(now: number, limit: number): EventEntry[] {
    const out: EventEntry[] = [];
    for (const entry of this.expiry.ascending()) {
      if (entry.event.expiresAt > now || out.length >= limit) break;
      out.push(entry);
    }
    return out;
  }
}
