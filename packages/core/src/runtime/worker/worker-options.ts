import { MAX_CLAIM_BATCH } from '../../contract/limits.js';
import { configInvalid } from '../../errors/refusals.js';
import { optionExample } from '../../internal/option-example.js';
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
  readonly prefetch: number;
}

/** A valid value of each worker option, for the example in a CONFIG_INVALID fix. */
const SAMPLES: Readonly<Record<string, string>> = {
  driver: 'createMemoryDriver()',
  jobs: '[sendEmail, resizeImage]',
  queues: "['default']",
  concurrency: '10',
  visibilityTimeoutMs: '30_000',
  pollIntervalMs: '1_000',
  settleBatchMs: '5',
  renewIntervalMs: '10_000',
  keyBusyDelayMs: '1_000',
  prefetch: '100',
};

const refuse = (option: string, reason: string, allowed?: string) =>
  configInvalid({
    option,
    reason,
    ...(allowed === undefined ? {} : { allowed }),
    example: optionExample('createWorker', option, SAMPLES[option] ?? '...'),
  });

const check = (option: string, value: unknown, min: number, integer = false, max?: number) => {
  const range = max === undefined ? `>= ${min}` : `from ${min} to ${max}`;
  const allowed = `must be ${integer ? 'an integer' : 'a finite number'} ${range}`;
  const bad =
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    value < min ||
    (max !== undefined && value > max) ||
    (integer && !Number.isInteger(value));
  if (bad) throw refuse(option, `is ${String(value)}; it ${allowed}`, allowed);
  return value as number;
};

/** The worker's numbers, checked (CONFIG_INVALID naming the option) and defaulted. */
export function checkWorkerOptions(options: WorkerOptions): WorkerSettings {
  if (typeof options.driver?.claim !== 'function') {
    throw refuse(
      'driver',
      'is not a Driver',
      'must be a Driver (createMemoryDriver(), createPgDriver(...))',
    );
  }
  const listsJobs = 'must list each job the worker runs (defineJob), each once';
  if (!Array.isArray(options.jobs) || options.jobs.length === 0) {
    throw refuse('jobs', 'lists no job', listsJobs);
  }
  const names = new Set<string>();
  for (const job of options.jobs) {
    if (names.has(job.name)) {
      throw refuse('jobs', `names job ${JSON.stringify(job.name)} twice`, listsJobs);
    }
    names.add(job.name);
  }
  if (options.queues !== undefined && options.queues.length === 0) {
    throw refuse(
      'queues',
      'names no queue',
      "must name at least one queue, or be left out to work every queue of the worker's jobs",
    );
  }
  const concurrency = check('concurrency', options.concurrency, 1, true, MAX_CLAIM_BATCH);
  const visibilityTimeoutMs = check('visibilityTimeoutMs', options.visibilityTimeoutMs, 1, true);
  const renewIntervalMs = check(
    'renewIntervalMs',
    options.renewIntervalMs ?? Math.max(1, Math.floor(visibilityTimeoutMs / 3)),
    1,
  );
  if (options.renewIntervalMs !== undefined && renewIntervalMs >= visibilityTimeoutMs) {
    throw refuse(
      'renewIntervalMs',
      `is ${renewIntervalMs}, not shorter than visibilityTimeoutMs (${visibilityTimeoutMs})`,
      'must be shorter than visibilityTimeoutMs (a third of it is the default)',
    );
  }
  return {
    concurrency,
    visibilityTimeoutMs,
    pollIntervalMs: check('pollIntervalMs', options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS, 1),
    settleBatchMs: check('settleBatchMs', options.settleBatchMs ?? DEFAULT_SETTLE_BATCH_MS, 0),
    renewIntervalMs,
    keyBusyDelayMs: check('keyBusyDelayMs', options.keyBusyDelayMs ?? DEFAULT_KEY_BUSY_DELAY_MS, 1),
    prefetch: check('prefetch', options.prefetch ?? 0, 0, true, MAX_CLAIM_BATCH),
  };
}
