import type { ListPosition } from '@berth/core/driver';
import type { Meter } from './meter.js';
import type { Row } from './store.js';

/** Rows kept in chunks no longer than this; a full chunk splits in two. */
const CHUNK = 512;

/** Whether `row` sorts below `position` in (createdAt, seq), the reverse of list order. */
const below = (row: ListPosition, position: ListPosition): boolean =>
  row.createdAt !== position.createdAt
    ? row.createdAt < position.createdAt
    : row.seq < position.seq;

/** The first index whose item is not `left` (items are ordered: every `left` one comes first). */
function search<T>(items: readonly T[], left: (item: T) => boolean): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (left(items[middle] as T)) low = middle + 1;
    else high = middle;
  }
  return low;
}

const lastOf = (chunk: readonly Row[]): Row => chunk[chunk.length - 1] as Row;

/**
 * Every row in keyset order, as sorted chunks: finding a cursor is two binary searches, a new
 * row (createdAt is the clock's now, so almost always the greatest) is appended, and a purged
 * row leaves its chunk in O(CHUNK). A list walks from the cursor, never from the start.
 */
export class ListIndex {
  private readonly chunks: Row[][] = [];

  constructor(private readonly meter: Meter) {}

  add(row: Row): void {
    // The common case first: a new row sorts after every other, so it joins the last chunk.
    const tail = this.chunks[this.chunks.length - 1];
    if (tail !== undefined && tail.length < 2 * CHUNK && below(lastOf(tail), row)) {
      tail.push(row);
      return;
    }
    const at = this.chunkFor((last) => below(last, row));
    const chunk = this.chunks[at];
    if (chunk === undefined) {
      this.chunks.push([row]);
      return;
    }
    if (below(lastOf(chunk), row)) chunk.push(row);
    else
      chunk.splice(
        search(chunk, (item) => below(item, row)),
        0,
        row,
      );
    if (chunk.length > 2 * CHUNK) this.chunks.splice(at + 1, 0, chunk.splice(CHUNK));
  }

  delete(row: Row): void {
    const at = this.chunkFor((last) => below(last, row));
    const chunk = this.chunks[at];
    if (chunk === undefined) return;
    const index = search(chunk, (item) => below(item, row));
    if (chunk[index] !== row) return;
    chunk.splice(index, 1);
    if (chunk.length === 0) this.chunks.splice(at, 1);
  }

  /**
   * Calls `visit` on rows in list order (newest first) strictly after `after`, or, with
   * `before`, on rows strictly before it nearest first; stops when `visit` answers false.
   */
  walk(
    cursor: {
      readonly after?: ListPosition | undefined;
      readonly before?: ListPosition | undefined;
    },
    visit: (row: Row) => boolean,
  ): void {
    const { chunks, meter } = this;
    const { after, before } = cursor;
    if (chunks.length === 0) return;
    if (before !== undefined) {
      const notAbove = (item: Row): boolean => !below(before, item);
      for (let at = this.chunkFor((last) => notAbove(last)); at < chunks.length; at += 1) {
        const chunk = chunks[at] as Row[];
        for (let index = search(chunk, notAbove); index < chunk.length; index += 1) {
          meter.visits += 1;
          if (!visit(chunk[index] as Row)) return;
        }
      }
      return;
    }
    const isBelow = (item: Row): boolean => after === undefined || below(item, after);
    for (let at = this.chunkFor((last) => isBelow(last)); at >= 0; at -= 1) {
      const chunk = chunks[at] as Row[];
      for (let index = search(chunk, isBelow) - 1; index >= 0; index -= 1) {
        meter.visits += 1;
        if (!visit(chunk[index] as Row)) return;
      }
    }
  }

  /** The first chunk whose last row is not `left`, or the last chunk when every one is. */
  private chunkFor(left: (last: Row) => boolean): number {
    const at = search(this.chunks, (chunk) => left(lastOf(chunk)));
    return Math.min(at, this.chunks.length - 1);
  }
}
