import { mayBeUnsent } from '../lifecycle-head.js';
import type { StoredJob } from '../record.js';

/**
 * The rows whose record may hold a lifecycle tail the stream never took (its writer died, or its
 * publish failed, before the stream answered), by id, with the revision that wrote it: what the
 * repair pass walks. Kept in revision order, as the watch delivers writes (a row written again
 * moves to the end), so the pass walks the oldest first and stops at the first too young.
 */
export class UnsentIndex {
  private readonly rows = new Map<string, number>();

  /**
   * `verified`: the revision the repair pass verified up to, as this process knows it; a replay
   * of a large bucket keeps only the rows written after it.
   */
  constructor(private readonly verified: () => number = () => 0) {}

  /** A job key now holds `job` (undefined: nothing visible) at `revision`. */
  note(id: string, job: StoredJob | undefined, revision: number): void {
    if (!mayBeUnsent(job) || revision <= this.verified()) {
      this.rows.delete(id);
      return;
    }
    // A batch decision applies a row again at the same revision: it keeps its place.
    if (this.rows.get(id) === revision) return;
    this.rows.delete(id);
    this.rows.set(id, revision);
  }

  drop(id: string): void {
    this.rows.delete(id);
  }

  /** Oldest first. */
  entries(): IterableIterator<[string, number]> {
    return this.rows.entries();
  }

  get size(): number {
    return this.rows.size;
  }
}
