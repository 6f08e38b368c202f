import type { Disruption } from '../fleet.ts';
import type { LedgerEvent } from '../ledger/events.ts';
import type { Crash } from '../nemesis/server-crash.ts';
import { heldAt, takenOver } from './held.ts';

/**
 * For each disruption of a worker: how long until every job it still held (`heldAt`) had started
 * again in another process. A disruption that caught no job mid-run is left out.
 */
export function recoveryTimes(
  disruptions: readonly Disruption[],
  events: readonly LedgerEvent[],
): number[] {
  const times: number[] = [];
  for (const disruption of disruptions) {
    let worst: number | undefined;
    for (const [job, claim] of heldAt(events, disruption.pid, disruption.at)) {
      const resumed = takenOver(events, disruption.pid, disruption.at, job, claim);
      if (resumed !== undefined) worst = Math.max(worst ?? 0, resumed.t - disruption.at);
    }
    if (worst !== undefined) times.push(worst);
  }
  return times;
}

/** For each crash: ms from the server accepting clients again to the next completion. */
export function firstCompletions(crashes: readonly Crash[], events: readonly LedgerEvent[]) {
  return crashes.map((crash) => {
    const first = events.find((event) => event.ev === 'completed' && event.t > crash.up);
    return {
      downMs: crash.up - crash.down,
      firstCompletionMs: first === undefined ? undefined : first.t - crash.up,
    };
  });
}
