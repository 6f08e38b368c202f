import type { LedgerEvent } from '../ledger/events.ts';
import type { Crash } from '../nemesis/server-crash.ts';

/**
 * For each fault (a primary killed, or cut off): the longest time the majority side completed
 * nothing, over the gaps between its completions that overlap the fault — from the last
 * completion before it to the first after work flowed again. `isolated`: pids on the cut-off
 * side, whose completions do not count.
 */
export function faultStalls(
  faults: readonly Crash[],
  events: readonly LedgerEvent[],
  isolated: ReadonlySet<number> = new Set(),
): number[] {
  const completions = events
    .filter((event) => event.ev === 'completed' && !isolated.has(event.pid))
    .map((event) => event.t)
    .sort((a, b) => a - b);
  return faults.map((fault) => {
    let longest = 0;
    for (let i = 1; i < completions.length; i++) {
      const from = completions[i - 1] as number;
      const to = completions[i] as number;
      if (to >= fault.down && from <= fault.up) longest = Math.max(longest, to - from);
    }
    return longest;
  });
}
