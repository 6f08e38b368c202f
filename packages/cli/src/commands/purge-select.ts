import { type Driver, type JobState, MAX_JOB_PAGE } from '@berth/core';
import { everyListed } from '../list-pages.js';
import { defined } from '../session.js';

/** What a purge removes: settled states, an age, and the narrowing filters `list` offers. */
export interface PurgeFilter {
  readonly states: readonly JobState[];
  /** Jobs that finished before this instant go. */
  readonly olderThan: number;
  readonly queue?: string | undefined;
  readonly name?: string | undefined;
  readonly tenantId?: string | undefined;
}

/** The jobs a purge would remove, found before anything is removed, and how they split. */
export interface PurgeSelection {
  readonly count: number;
  /** The jobs to remove by id; empty for a dry run, which only counts. */
  readonly ids: readonly string[];
  readonly byState: Readonly<Record<string, number>>;
  readonly byQueue: Readonly<Record<string, number>>;
}

/** True when the filter narrows past what `purge` itself takes (states and age). */
export const narrowed = (filter: PurgeFilter): boolean =>
  filter.queue !== undefined || filter.name !== undefined || filter.tenantId !== undefined;

const bump = (counts: Record<string, number>, key: string): void => {
  counts[key] = (counts[key] ?? 0) + 1;
};

/**
 * The matching jobs, through full list pages of each state. `purge` filters only by state and
 * age, so queue, name and tenant are applied by `list`; the age is checked here per job.
 */
export async function selectPurge(
  driver: Driver,
  filter: PurgeFilter,
  keepIds: boolean,
): Promise<PurgeSelection> {
  const ids: string[] = [];
  let count = 0;
  const byState: Record<string, number> = {};
  const byQueue: Record<string, number> = {};
  for (const state of filter.states) {
    const matching = {
      state,
      ...defined({ queue: filter.queue, name: filter.name, tenantId: filter.tenantId }),
    };
    for await (const job of everyListed(driver, matching)) {
      if (job.finishedAt === undefined || job.finishedAt >= filter.olderThan) continue;
      count += 1;
      if (keepIds) ids.push(job.id);
      bump(byState, state);
      bump(byQueue, job.queue);
    }
  }
  return { count, ids, byState, byQueue };
}

/**
 * Removes the selected ids in calls of at most `batchSize` (and one list page); the states and
 * age still apply to each id, so a job requeued since it was selected stays.
 */
export async function purgeIds(
  driver: Driver,
  filter: PurgeFilter,
  ids: readonly string[],
  batchSize: number,
): Promise<number> {
  const chunk = Math.min(MAX_JOB_PAGE, batchSize);
  let purged = 0;
  for (let at = 0; at < ids.length; at += chunk) {
    const slice = ids.slice(at, at + chunk);
    purged += await driver.purge({
      states: filter.states,
      olderThan: filter.olderThan,
      ids: slice,
      limit: slice.length,
    });
  }
  return purged;
}

/** Every match of states and age, in bounded calls: one that removes a whole batch may have left more. */
export async function purgeAll(
  driver: Driver,
  filter: PurgeFilter,
  batchSize: number,
): Promise<number> {
  let purged = 0;
  for (;;) {
    const removed = await driver.purge({
      states: filter.states,
      olderThan: filter.olderThan,
      limit: batchSize,
    });
    purged += removed;
    if (removed < batchSize) return purged;
  }
}
