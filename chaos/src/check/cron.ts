import { slotJobId } from '@berth/core';
import { CRON_SCHEDULE } from '../child/jobs.ts';
import type { LedgerEvent } from '../ledger/events.ts';

export interface CronFindings {
  /** Slots from the first that ran to the last that ran. */
  readonly slots: number;
  readonly firedTwice: number[];
  readonly missed: number[];
}

/**
 * Each every-second slot between the first and the last that ran must have run exactly once. A
 * slot ran when a worker wrote its `completed` line or the backend was seen holding its job
 * `completed` (`backendCompleted`): a worker killed after its ack landed writes no line.
 */
export function checkCron(
  events: readonly LedgerEvent[],
  window: { readonly from: number; readonly to: number },
  backendCompleted: ReadonlySet<string> = new Set(),
): CronFindings {
  const runs = new Map<string, Set<string>>();
  const completed = new Set<string>(backendCompleted);
  for (const event of events) {
    if (event.ev !== 'start' && event.ev !== 'completed') continue;
    const set = runs.get(event.job) ?? new Set<string>();
    set.add(event.runId);
    runs.set(event.job, set);
    if (event.ev === 'completed') completed.add(event.job);
  }
  const ran: number[] = [];
  const firedTwice: number[] = [];
  const first = Math.floor(window.from / 1_000) * 1_000;
  for (let slot = first; slot <= window.to; slot += 1_000) {
    const id = slotJobId(CRON_SCHEDULE, slot);
    if (completed.has(id)) ran.push(slot);
    if ((runs.get(id)?.size ?? 0) > 1) firedTwice.push(slot);
  }
  const low = ran[0];
  const high = ran[ran.length - 1];
  const missed: number[] = [];
  if (low !== undefined && high !== undefined) {
    for (let slot = low; slot <= high; slot += 1_000) {
      if (!completed.has(slotJobId(CRON_SCHEDULE, slot))) missed.push(slot);
    }
  }
  return {
    slots: low === undefined || high === undefined ? 0 : (high - low) / 1_000 + 1,
    firedTwice,
    missed,
  };
}
