/** Negative when `a` sorts before `b`; never 0 for two different entries. */
export type Compare<T> = (a: T, b: T) => number;

/** Entries per chunk before it splits: inserts and deletes move at most this many references. */
const CHUNK = 512;

/**
 * A sorted list of unique entries kept as a list of sorted chunks (each at most CHUNK long):
 * insert and delete cost O(log n + CHUNK), walking from any bound costs O(log n) to start and
 * O(1) per entry. The order must be total (ties broken by a unique key such as the sequence).
 */
export class SortedList<T> {
  private readonly chunks: T[][] = [];
  private count = 0;

  constructor(private readonly compare: Compare<T>) {}

  get size(): number {
    return this.count;
  }

  /** The chunk an entry at `probe` belongs in: the first whose last entry is not before it. */
  private chunkFor(probe: T, compare: Compare<T>): number {
    let low = 0;
    let high = this.chunks.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      const chunk = this.chunks[mid] as T[];
      if (compare(chunk[chunk.length - 1] as T, probe) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** Index in `chunk` of the first entry not before `probe`. */
  private static lowerBound<T>(chunk: readonly T[], probe: T, compare: Compare<T>): number {
    let low = 0;
    let high = chunk.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (compare(chunk[mid] as T, probe) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  insert(entry: T): void {
    if (this.chunks.length === 0) {
      this.chunks.push([entry]);
      this.count = 1;
      return;
    }
    const at = this.chunkFor(entry, this.compare);
    const chunk = this.chunks[at] as T[];
    chunk.splice(SortedList.lowerBound(chunk, entry, this.compare), 0, entry);
    this.count += 1;
    if (chunk.length > CHUNK) this.chunks.splice(at + 1, 0, chunk.splice(CHUNK >> 1));
  }

  /** Removes the entry equal (by the order) to `entry`; answers whether one was there. */
  delete(entry: T): boolean {
    if (this.chunks.length === 0) return false;
    const at = this.chunkFor(entry, this.compare);
    const chunk = this.chunks[at] as T[];
    const index = SortedList.lowerBound(chunk, entry, this.compare);
    if (index >= chunk.length || this.compare(chunk[index] as T, entry) !== 0) return false;
    chunk.splice(index, 1);
    this.count -= 1;
    if (chunk.length === 0) this.chunks.splice(at, 1);
    return true;
  }

  first(): T | undefined {
    return this.chunks[0]?.[0];
  }

  /** Entries in order, from the first not before `from` (or the start). */
  *ascending(from?: T, compare: Compare<T> = this.compare): Generator<T> {
    let at = 0;
    let index = 0;
    if (from !== undefined && this.chunks.length > 0) {
      at = this.chunkFor(from, compare);
      index = SortedList.lowerBound(this.chunks[at] as T[], from, compare);
    }
    for (; at < this.chunks.length; at += 1, index = 0) {
      const chunk = this.chunks[at] as T[];
      for (; index < chunk.length; index += 1) yield chunk[index] as T;
    }
  }

  /** Entries in reverse order, from the last before `before` (or the end). */
  *descending(before?: T, compare: Compare<T> = this.compare): Generator<T> {
    let at = this.chunks.length - 1;
    let index = (this.chunks[at]?.length ?? 0) - 1;
    if (before !== undefined && this.chunks.length > 0) {
      at = this.chunkFor(before, compare);
      index = SortedList.lowerBound(this.chunks[at] as T[], before, compare) - 1;
    }
    for (; at >= 0; at -= 1, index = (this.chunks[at]?.length ?? 0) - 1) {
      const chunk = this.chunks[at] as T[];
      for (; index >= 0; index -= 1) yield chunk[index] as T;
    }
  }

  /** How many entries sort before `probe`: O(chunks + log n). */
  countBefore(probe: T, compare: Compare<T> = this.compare): number {
    if (this.chunks.length === 0) return 0;
    const at = this.chunkFor(probe, compare);
    let total = 0;
    for (let index = 0; index < at; index += 1) total += (this.chunks[index] as T[]).length;
    return total + SortedList.lowerBound(this.chunks[at] as T[], probe, compare);
  }
}
