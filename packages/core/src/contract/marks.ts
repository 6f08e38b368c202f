/**
 * Named monotonic marks: the scheduler's per-schedule high-water mark, so a cron slot once
 * enqueued is never enqueued again, even after retention purged its job. A mark only rises.
 * Kit group: `marks`.
 */
export interface MarkStore {
  /** The mark's value, or undefined when never advanced. */
  get(name: string): Promise<number | undefined>;
  /**
   * Raises the mark to `value` when it is unset or lower, atomically; answers whether it moved.
   * Of racing advances the highest value wins and each answers truthfully: an advance to a
   * value the mark already holds (or passed) answers false.
   */
  advance(name: string, value: number): Promise<boolean>;
}
