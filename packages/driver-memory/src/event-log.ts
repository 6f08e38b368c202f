import type { Meter } from './meter.js';
import type { StoredEvent } from './store.js';

const expiresBefore = (a: StoredEvent, b: StoredEvent): boolean =>
  a.record.expiresAt !== b.record.expiresAt
    ? a.record.expiresAt < b.record.expiresAt
    : a.seq < b.seq;

/**
 * Stored events in publish order (a Map keeps insertion order, and the sequence grows with it),
 * per name too, plus a min-heap by expiry so a bounded purge pops only what it removes.
 */
export class EventLog {
  private readonly all = new Map<number, StoredEvent>();
  private readonly named = new Map<string, Map<number, StoredEvent>>();
  private readonly expiry: StoredEvent[] = [];

  constructor(private readonly meter: Meter) {}

  add(event: StoredEvent): void {
    this.all.set(event.seq, event);
    let named = this.named.get(event.record.name);
    if (named === undefined) {
      named = new Map();
      this.named.set(event.record.name, named);
    }
    named.set(event.seq, event);
    this.push(event);
  }

  /** Every stored event (all, or of `name`), expired ones included, in publish order. */
  inOrder(name?: string): Iterable<StoredEvent> {
    return name === undefined ? this.all.values() : (this.named.get(name)?.values() ?? []);
  }

  /** Removes up to `limit` events with `expiresAt <= now`, soonest expiry first; answers how many. */
  purgeExpired(now: number, limit: number): number {
    let removed = 0;
    for (let head = this.expiry[0]; head !== undefined && removed < limit; head = this.expiry[0]) {
      if (head.record.expiresAt > now) break;
      this.pop();
      this.all.delete(head.seq);
      const named = this.named.get(head.record.name);
      named?.delete(head.seq);
      if (named?.size === 0) this.named.delete(head.record.name);
      removed += 1;
    }
    return removed;
  }

  private push(event: StoredEvent): void {
    const heap = this.expiry;
    let at = heap.push(event) - 1;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      const above = heap[parent] as StoredEvent;
      this.meter.visits += 1;
      if (!expiresBefore(event, above)) break;
      heap[at] = above;
      at = parent;
    }
    heap[at] = event;
  }

  private pop(): void {
    const heap = this.expiry;
    const last = heap.pop();
    if (last === undefined || heap.length === 0) return;
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child =
        right < heap.length && expiresBefore(heap[right] as StoredEvent, heap[left] as StoredEvent)
          ? right
          : left;
      this.meter.visits += 1;
      if (!expiresBefore(heap[child] as StoredEvent, last)) break;
      heap[at] = heap[child] as StoredEvent;
      at = child;
    }
    heap[at] = last;
  }
}
