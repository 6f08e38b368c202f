import type { Driver } from '../../contract/driver.js';
import { MAX_JOB_PAGE } from '../../contract/limits.js';
import type { JobState } from '../../contract/states.js';
import { windowMinutes } from './minutes.js';
import { type SettledSeries, SettledTally } from './tally.js';

const SETTLED: readonly JobState[] = ['completed', 'failed', 'dead'];

export interface ScanThroughputRequest {
  /** The window: this many whole minutes, ending with the current one. */
  readonly minutes: number;
  /** List pages read per settled state at most (each MAX_JOB_PAGE rows): the bound. */
  readonly pages: number;
  readonly tenantId?: string;
}

export interface ScannedThroughput {
  readonly minuteStarts: readonly number[];
  readonly perQueue: ReadonlyMap<string, SettledSeries>;
  readonly total: SettledSeries;
  /** States whose walk stopped at the page bound with rows left: their counts are lower bounds. */
  readonly capped: readonly JobState[];
}

/**
 * Jobs completed and failed per minute over the last `minutes`, from their `finishedAt`: walks
 * the `completed`, `failed` and `dead` lists (newest created first) until a page reaches jobs
 * created before the window, or `pages` pages were read. A job created before the window that
 * finished inside it is counted only when its page was read.
 */
export async function scanThroughput(
  driver: Driver,
  request: ScanThroughputRequest,
): Promise<ScannedThroughput> {
  const now = driver.clock.now();
  const tally = new SettledTally(windowMinutes(now, request.minutes));
  const windowStart = tally.minuteStarts[0] ?? now;
  const capped: JobState[] = [];
  for (const state of SETTLED) {
    let after: string | undefined;
    for (let page = 0; ; page += 1) {
      if (page >= request.pages) {
        capped.push(state);
        break;
      }
      const listed = await driver.list({
        state,
        limit: MAX_JOB_PAGE,
        ...(request.tenantId === undefined ? {} : { tenantId: request.tenantId }),
        ...(after === undefined ? {} : { after }),
      });
      for (const job of listed.jobs) tally.add(state, job);
      after = listed.next;
      const last = listed.jobs.at(-1);
      if (after === undefined || last === undefined || last.createdAt < windowStart) break;
    }
  }
  return {
    minuteStarts: tally.minuteStarts,
    perQueue: tally.perQueue(),
    total: tally.total(),
    capped,
  };
}
