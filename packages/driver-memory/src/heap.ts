import type { Meter } from './meter.js';
import type { Row } from './store.js';

/**
 * A binary heap of rows that records each row's index on the row itself, so any row leaves in
 * O(log n) with no search and no tombstones. A row sits in at most one "home" heap (index
 * `at`) and at most one age heap (index `ageAt`). Every compare counts one visit on the meter.
 */
export class RowHeap {
  private readonly rows: Row[] = [];

  constructor(
    /** True when `a` leaves the heap before `b`. */
    private readonly before: (a: Row, b: Row) => boolean,
    private readonly meter: Meter,
    /** Keeps `ageAt` instead of `at`. */
    private readonly age = false,
  ) {}

  get size(): number {
    return this.rows.length;
  }

  peek(): Row | undefined {
    return this.rows[0];
  }

  /** The rows in heap (not sorted) order; a copy. */
  list(): Row[] {
    return [...this.rows];
  }

  push(row: Row): void {
    this.rows.push(row);
    this.up(this.rows.length - 1, row);
  }

  /**
   * Takes `row` out; it must be in this heap. The hole walks down to a leaf along the smaller
   * children (one compare per level, not two), then the last row fills it and rises as far as
   * it must: usually not at all, since the last row is among the latest.
   */
  remove(row: Row): void {
    const { rows } = this;
    const index = this.age ? row.ageAt : row.at;
    this.mark(row, -1);
    const last = rows.pop();
    if (last === undefined || last === row) return;
    this.up(this.sink(index), last);
  }

  private compare(a: Row, b: Row): boolean {
    this.meter.visits += 1;
    return this.before(a, b);
  }

  private mark(row: Row, index: number): void {
    if (this.age) row.ageAt = index;
    else row.at = index;
  }

  private up(start: number, row: Row): void {
    let index = start;
    while (index > 0) {
      const parentIndex = (index - 1) >> 1;
      const parent = this.rows[parentIndex] as Row;
      if (!this.compare(row, parent)) break;
      this.rows[index] = parent;
      this.mark(parent, index);
      index = parentIndex;
    }
    this.rows[index] = row;
    this.mark(row, index);
  }

  /** Moves the hole at `start` down to a leaf, lifting the smaller child each level; its index. */
  private sink(start: number): number {
    const { rows } = this;
    const { length } = rows;
    let index = start;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= length) return index;
      let childIndex = left;
      let child = rows[left] as Row;
      if (left + 1 < length) {
        const right = rows[left + 1] as Row;
        if (this.compare(right, child)) {
          child = right;
          childIndex = left + 1;
        }
      }
      rows[index] = child;
      this.mark(child, index);
      index = childIndex;
    }
  }
}
