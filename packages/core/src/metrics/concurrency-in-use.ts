import type { Driver } from '../contract/driver.js';
import { MAX_JOB_PAGE } from '../contract/limits.js';
import { screenCountOption } from '../screen/count-option.js';

/** One job name's concurrency key with the jobs running under it now. */
export interface ConcurrencyKeyUse {
  /** The job name: a key's slots are the name's (`defineJob({ concurrency })`). */
  readonly name: string;
  /** The job's `concurrencyKey`, as `concurrency.key(payload)` gave it at enqueue. */
  readonly key: string;
  /** Jobs of the name and key running now: each holds one of the key's slots while it runs. */
  readonly running: number;
}

/** What {@link concurrencyInUse} answers. */
export interface ConcurrencyInUse {
  /** Keys with running jobs, most first (then by name and key); at most `top` of them. */
  readonly keys: readonly ConcurrencyKeyUse[];
  /** Keys with running jobs in all, `keys` and the ones past `top`. */
  readonly keyCount: number;
  /** Running jobs read. */
  readonly scanned: number;
  /** More jobs were running than `maxRunning`: the counts cover the newest `maxRunning`. */
  readonly truncated: boolean;
}

/** How much {@link concurrencyInUse} answers and reads, and for whom. */
export interface ConcurrencyInUseOptions {
  /** Keys answered, the busiest first. Default 50. */
  readonly top?: number;
  /** Running jobs read at most (pages of 500). Default 5,000. */
  readonly maxRunning?: number;
  /** Only this tenant's running jobs; default every tenant's. */
  readonly tenantId?: string;
}

const EXAMPLE = 'await concurrencyInUse(driver, { top: 20, maxRunning: 5_000 })';

/** The options with defaults filled; CONFIG_INVALID naming the option that is out of range. */
export function resolveConcurrencyInUse(
  options: ConcurrencyInUseOptions,
): ConcurrencyInUseOptions & { readonly top: number; readonly maxRunning: number } {
  return {
    top: screenCountOption('top', options.top, 10_000, EXAMPLE) ?? 50,
    maxRunning: screenCountOption('maxRunning', options.maxRunning, 1_000_000, EXAMPLE) ?? 5_000,
    ...(options.tenantId === undefined ? {} : { tenantId: options.tenantId }),
  };
}

/**
 * Per-key concurrency in use across the fleet: the running jobs that carry a `concurrencyKey`,
 * counted per job name and key, read from the driver's running rows (one `list` per 500, at
 * most `maxRunning` rows) — what `instrumentQueues`, `berth stats` and the dashboard's overview
 * report. A running job holds its key's slot from just after its claim until its handler
 * returns, so the count can differ from the slots held for a moment: a job between its claim and
 * its admission, or a handler still running past its job's settle (it ignored its abort).
 */
export async function concurrencyInUse(
  driver: Driver,
  options: ConcurrencyInUseOptions = {},
): Promise<ConcurrencyInUse> {
  const { top, maxRunning, tenantId } = resolveConcurrencyInUse(options);
  // Keyed by name and key with a separator neither holds: names and keys are bounded, printable.
  const counts = new Map<string, { name: string; key: string; running: number }>();
  let scanned = 0;
  let after: string | undefined;
  let truncated = false;
  for (;;) {
    const limit = Math.min(MAX_JOB_PAGE, maxRunning - scanned);
    const page = await driver.list({
      state: 'running',
      limit,
      ...(tenantId === undefined ? {} : { tenantId }),
      ...(after === undefined ? {} : { after }),
    });
    for (const job of page.jobs) {
      if (job.concurrencyKey === undefined) continue;
      const id = `${job.name}\u0000${job.concurrencyKey}`;
      const seen = counts.get(id);
      if (seen === undefined)
        counts.set(id, { name: job.name, key: job.concurrencyKey, running: 1 });
      else seen.running += 1;
    }
    scanned += page.jobs.length;
    after = page.next;
    if (after === undefined) break;
    if (scanned >= maxRunning) {
      truncated = true;
      break;
    }
  }
  const keys = [...counts.values()].sort(
    (a, b) =>
      b.running - a.running ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) ||
      (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
  return { keys: keys.slice(0, top), keyCount: keys.length, scanned, truncated };
}
