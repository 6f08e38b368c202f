import { MAX_CLAIM_BATCH } from '../../contract/limits.js';
import { configInvalid } from '../../errors/refusals.js';
import type { WorkerOptions } from './worker-types.js';

export const DEFAULT_POLL_INTERVAL_MS = 1_000;
export const DEFAULT_SETTLE_BATCH_MS = 5;
export const DEFAULT_KEY_BUSY_DELAY_MS = 1_000;

export interface WorkerSettings {
  readonly concurrency: number;
  readonly visibilityTimeoutMs: number;
  readonly pollIntervalMs: number;
  readonly settleBatchMs: number;
  readonly renewIntervalMs: number;
  readonly keyBusyDelayMs: number;
}

const check = (option: string, value: unknown, min: number, integer = false): number => {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
    throw configInvalid(option, `must be a finite number >= ${min}`);
  }
  if (integer && !Number.isInteger(value)) throw configInvalid(option, 'must be an integer');
  return value;
};

/** The worker's numbers, checked (CONFIG_INVALID naming the option) and defaulted. */
export function checkWorkerOptions(options: WorkerOptions): WorkerSettings {
  if (typeof options.driver?.claim !== 'function')
    throw configInvalid('driver', 'must be a Driver');
  if (!Array.isArray(options.jobs) || options.jobs.length === 0) {
    throw configInvalid('jobs', 'must list at least one job (defineJob)');
  }
  const names = new Set<string>();
  for (const job of options.jobs) {
    if (names.has(job.name))
      throw configInvalid('jobs', `names job ${JSON.stringify(job.name)} twice`);
    names.add(job.name);
  }
  if (options.queues !== undefined && options.queues.length === 0) {
    throw configInvalid('queues', 'must name at least one queue');
  }
  const concurrency = check('concurrency', options.concurrency, 1, true);
  if (concurrency > MAX_CLAIM_BATCH)
    throw configInvalid('concurrency', `must be at most ${MAX_CLAIM_BATCH}`);
  const visibilityTimeoutMs = check('visibilityTimeoutMs', options.visibilityTimeoutMs, 1, true);
  const renewIntervalMs = check(
    'renewIntervalMs',
    options.renewIntervalMs ?? Math.max(1, Math.floor(visibilityTimeoutMs / 3)),
    1,
  );
  if (options.renewIntervalMs !== undefined && renewIntervalMs >= visibilityTimeoutMs) {
    throw configInvalid('renewIntervalMs', 'must be shorter than visibilityTimeoutMs');
  }
  return {
    concurrency,
    visibilityTimeoutMs,
    pollIntervalMs: check('pollIntervalMs', options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS, 1),
    settleBatchMs: check('settleBatchMs', options.settleBatchMs ?? DEFAULT_SETTLE_BATCH_MS, 0),
    renewIntervalMs,
    keyBusyDelayMs: check('keyBusyDelayMs', options.keyBusyDelayMs ?? DEFAULT_KEY_BUSY_DELAY_MS, 1),
  };
}
