import type { Disruption } from '../fleet.ts';
import type { LedgerEvent } from '../ledger/events.ts';
import type { Crash } from '../nemesis/server-crash.ts';

/**
 * For each disruption of a worker: how long until every job it was running had started again
 * in another process. A disruption that caught no job mid-run is left out.
 */
export function recoveryTimes(
  disruptions: readonly Disruption[],
  events: readonly LedgerEvent[],
): number[] {
  const times: number[] = [];
  for (const disruption of disruptions) {
    const open = new Map<string, number>();
    for (const event of events) {
      if (event.t > disruption.at) break;
      if (event.pid !== disruption.pid) continue;
      if (event.ev === 'start') open.set(`${event.job}:${event.claim}`, event.t);
      if (event.ev === 'end') open.delete(`${event.job}:${event.claim}`);
    }
    let worst: number | undefined;
    for (const key of open.keys()) {
      const job = key.slice(0, key.lastIndexOf(':'));
      const resumed = events.find(
        (event) =>
          event.ev === 'start' &&
          event.job === job &&
          event.pid !== disruption.pid &&
          event.t > disruption.at,
      );
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
