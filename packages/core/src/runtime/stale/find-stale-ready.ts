import type { Driver } from '../../contract/driver.js';
import type { QueueStats } from '../../contract/records.js';

/** The default age past which a ready job counts as stale, ms (5 minutes). */
export const DEFAULT_STALE_READY_AFTER_MS = 5 * 60_000;
/** Rows one page of the walk reads. */
export const STALE_READY_PAGE = 100;

/** A job name with ready jobs waiting past the threshold on one queue. */
export interface StaleReadyName {
  readonly queue: string;
  readonly name: string;
  /** `now - runAt` of its oldest ready job among the rows read. */
  readonly oldestReadyAgeMs: number;
  /** How many of its ready jobs past the threshold were among the rows read. */
  readonly seen: number;
}

export interface StaleReadyPage {
  readonly names: readonly StaleReadyName[];
  /** The cursor to read on from; absent once the walk reached the oldest ready row. */
  readonly next?: string;
}

export interface FindStaleReadyRequest {
  readonly queue: string;
  /** A ready job counts once `now - runAt` is at least this, ms. */
  readonly staleAfterMs: number;
  /** Pages read at most (each STALE_READY_PAGE rows): the bound on the walk. */
  readonly pages: number;
  /** Where a previous walk stopped (its `next`); default the newest ready row. */
  readonly after?: string;
  /** Only these names are reported; default every name. */
  readonly include?: (name: string) => boolean;
  /** Only this tenant's jobs. */
  readonly tenantId?: string;
}

/**
 * Names with ready jobs waiting longer than `staleAfterMs` on one queue, read through `list` in
 * at most `pages` pages (list walks newest first, so a huge backlog is read a bounded slice at
 * a time: pass `next` back as `after` to go on). Never a scan of the whole backlog per call.
 */
export async function findStaleReady(
  driver: Driver,
  request: FindStaleReadyRequest,
): Promise<StaleReadyPage> {
  const now = driver.clock.now();
  const found = new Map<string, { oldest: number; seen: number }>();
  let after = request.after;
  for (let page = 0; page < request.pages; page += 1) {
    const listed = await driver.list({
      state: 'ready',
      queue: request.queue,
      limit: STALE_READY_PAGE,
      ...(request.tenantId === undefined ? {} : { tenantId: request.tenantId }),
      ...(after === undefined ? {} : { after }),
    });
    for (const job of listed.jobs) {
      const age = now - job.runAt;
      if (age < request.staleAfterMs) continue;
      if (request.include !== undefined && !request.include(job.name)) continue;
      const entry = found.get(job.name);
      if (entry === undefined) found.set(job.name, { oldest: age, seen: 1 });
      else found.set(job.name, { oldest: Math.max(entry.oldest, age), seen: entry.seen + 1 });
    }
    after = listed.next;
    if (after === undefined) break;
  }
  const names = [...found].map(([name, entry]) => ({
    queue: request.queue,
    name,
    oldestReadyAgeMs: entry.oldest,
    seen: entry.seen,
  }));
  names.sort((a, b) => b.oldestReadyAgeMs - a.oldestReadyAgeMs || (a.name < b.name ? -1 : 1));
  return after === undefined ? { names } : { names, next: after };
}

/** Stale ready names across queues, and the queues not read to their end. */
export interface StaleReadyReport {
  readonly afterMs: number;
  readonly names: readonly StaleReadyName[];
  /** Queues holding more ready rows than were read: more names may be there. */
  readonly partial: readonly string[];
}

/**
 * {@link findStaleReady} for every queue whose oldest ready job (from `stats()`, or a tenant's
 * own reading of it) waited at least `staleAfterMs`, `pages` pages each: a queue whose oldest
 * ready job is younger holds no stale name and costs no read.
 */
export async function staleReadyReport(
  driver: Driver,
  queues: readonly Pick<QueueStats, 'queue' | 'oldestReadyAgeMs'>[],
  request: { readonly staleAfterMs: number; readonly pages: number; readonly tenantId?: string },
): Promise<StaleReadyReport> {
  const names: StaleReadyName[] = [];
  const partial: string[] = [];
  for (const entry of queues) {
    if (entry.oldestReadyAgeMs === null || entry.oldestReadyAgeMs < request.staleAfterMs) continue;
    const found = await findStaleReady(driver, { queue: entry.queue, ...request });
    names.push(...found.names);
    if (found.next !== undefined) partial.push(entry.queue);
  }
  return { afterMs: request.staleAfterMs, names, partial };
}
