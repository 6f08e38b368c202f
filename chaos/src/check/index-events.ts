import type { LedgerEvent } from '../ledger/events.ts';

/** The ledger's events grouped by job id, each group in time order. */
export function byJob(events: readonly LedgerEvent[]): Map<string, LedgerEvent[]> {
  const jobs = new Map<string, LedgerEvent[]>();
  for (const event of events) {
    const list = jobs.get(event.job);
    if (list === undefined) jobs.set(event.job, [event]);
    else list.push(event);
  }
  return jobs;
}

export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? sorted[middle]
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}
