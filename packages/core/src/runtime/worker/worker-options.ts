import type { Driver } from '../../contract/driver.js';
import { MAX_CLAIM_BATCH, MAX_NAME_LENGTH } from '../../contract/limits.js';
import { describeReceived } from '../../errors/received.js';
import { configInvalid } from '../../errors/refusals.js';
import {
  configArray,
  configDriver,
  configLogger,
  configObject,
  configuring,
} from '../../internal/config-screen.js';
import { optionExample } from '../../internal/option-example.js';
import type { AnyJobDefinition } from '../jobs/job-types.js';
import { DEFAULT_STALE_READY_AFTER_MS } from '../stale/find-stale-ready.js';
import type { RuntimeLogger } from './logger.js';
import type { WorkerOptions } from './worker-types.js';

export const DEFAULT_POLL_INTERVAL_MS = 1_000;
export const DEFAULT_SETTLE_BATCH_MS = 5;
export const DEFAULT_KEY_BUSY_DELAY_MS = 1_000;

/** The worker's options, checked and read once: nothing reads the app's object again. */
export interface WorkerSettings {
  readonly driver: Driver;
  readonly jobs: readonly AnyJobDefinition[];
  readonly queues: readonly string[] | undefined;
  readonly workerId: string | undefined;
  readonly logger: RuntimeLogger | undefined;
  readonly random: (() => number) | undefined;
  readonly defaultStepTimeoutMs: number | undefined;
  readonly eventPollMs: number | undefined;
  readonly concurrency: number;
  readonly visibilityTimeoutMs: number;
  readonly pollIntervalMs: number;
  readonly settleBatchMs: number;
  readonly renewIntervalMs: number;
  readonly keyBusyDelayMs: number;
  readonly prefetch: number;
  readonly staleReadyAfterMs: number;
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
  workerId: "'worker-1'",
  logger: 'console',
  random: 'Math.random',
  defaultStepTimeoutMs: '60_000',
  eventPollMs: '5_000',
  staleReadyAfterMs: '300_000',
};

const OPTIONS_EXAMPLE =
  'const options = { driver, jobs: [sendEmail], concurrency: 10, visibilityTimeoutMs: 30_000 }; createWorker(options)';

const refuse = (option: string, reason: string, allowed?: string) =>
  configInvalid({
    option,
    reason,
    ...(allowed === undefined ? {} : { allowed }),
    example: optionExample('createWorker', option, SAMPLES[option] ?? '...'),
  });

/** The numbers an option takes: at least `min`, at most `max`, whole when `integer`. */
interface NumberRange {
  readonly min: number;
  readonly max?: number;
  readonly integer?: boolean;
}

const check = (option: string, value: unknown, { min, max, integer = false }: NumberRange) => {
  const range = max === undefined ? `>= ${min}` : `from ${min} to ${max}`;
  const allowed = `must be ${integer ? 'an integer' : 'a finite number'} ${range}`;
  const bad =
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    value < min ||
    (max !== undefined && value > max) ||
    (integer && !Number.isInteger(value));
  if (bad) throw refuse(option, `is ${describeReceived(value)}; it ${allowed}`, allowed);
  return value as number;
};

/** A job the worker can run: a definition made by defineJob (or implementJob). */
function isRunnable(job: unknown): job is AnyJobDefinition {
  const candidate = job as Partial<AnyJobDefinition> | null | undefined;
  return (
    typeof candidate?.name === 'string' &&
    typeof candidate.queue === 'string' &&
    typeof candidate.run === 'function' &&
    typeof candidate.retry?.maxAttempts === 'number'
  );
}

function checkJobs(given: unknown): readonly AnyJobDefinition[] {
  const listsJobs = 'must list each job the worker runs (defineJob), each once';
  const jobs = configArray(
    'jobs',
    given,
    optionExample('createWorker', 'jobs', SAMPLES.jobs ?? ''),
  );
  if (jobs.length === 0) throw refuse('jobs', 'lists no job', listsJobs);
  const names = new Set<string>();
  for (const [index, job] of jobs.entries()) {
    if (!isRunnable(job)) {
      throw refuse(
        'jobs',
        `holds ${describeReceived(job)} at index ${index}, not a job made by defineJob`,
        listsJobs,
      );
    }
    if (names.has(job.name)) {
      throw refuse('jobs', `names job ${JSON.stringify(job.name)} twice`, listsJobs);
    }
    names.add(job.name);
  }
  return jobs as readonly AnyJobDefinition[];
}

function checkQueues(given: unknown): readonly string[] | undefined {
  if (given === undefined) return undefined;
  const allowed =
    "must name at least one queue, or be left out to work every queue of the worker's jobs";
  const queues = configArray(
    'queues',
    given,
    optionExample('createWorker', 'queues', SAMPLES.queues ?? ''),
  );
  if (queues.length === 0) throw refuse('queues', 'names no queue', allowed);
  for (const queue of queues) {
    if (typeof queue !== 'string' || queue.length === 0 || queue.length > MAX_NAME_LENGTH) {
      throw refuse('queues', `holds ${describeReceived(queue)}, not a queue name`, allowed);
    }
  }
  return queues as readonly string[];
}

function checkWorkerId(given: unknown): string | undefined {
  if (given === undefined) return undefined;
  if (typeof given === 'string' && given.length > 0 && given.length <= MAX_NAME_LENGTH)
    return given;
  const allowed = `must be a string of 1 to ${MAX_NAME_LENGTH} characters, or be left out`;
  throw refuse('workerId', `is ${describeReceived(given)}; it ${allowed}`, allowed);
}

const optionalNumber = (option: string, value: unknown, min: number): number | undefined =>
  value === undefined ? undefined : check(option, value, { min });

/** The worker's options, checked (CONFIG_INVALID naming the option), defaulted and read once. */
export function checkWorkerOptions(options: WorkerOptions): WorkerSettings {
  return configuring('options', OPTIONS_EXAMPLE, () => readWorkerOptions(options));
}

function readWorkerOptions(given: WorkerOptions): WorkerSettings {
  const options = configObject('options', given, OPTIONS_EXAMPLE);
  const driver = configDriver(
    options.driver,
    optionExample('createWorker', 'driver', SAMPLES.driver ?? ''),
  );
  const jobs = checkJobs(options.jobs);
  const queues = checkQueues(options.queues);
  const logger = configLogger(
    options.logger as RuntimeLogger | undefined,
    ['debug', 'info', 'warn', 'error'],
    optionExample('createWorker', 'logger', SAMPLES.logger ?? ''),
  );
  if (options.random !== undefined && typeof options.random !== 'function') {
    throw refuse(
      'random',
      `is ${describeReceived(options.random)}, not a function`,
      'must be a function answering a number in [0, 1), or be left out',
    );
  }
  const concurrency = check('concurrency', options.concurrency, {
    min: 1,
    max: MAX_CLAIM_BATCH,
    integer: true,
  });
  const visibilityTimeoutMs = check('visibilityTimeoutMs', options.visibilityTimeoutMs, {
    min: 1,
    integer: true,
  });
  const renewIntervalMs = check(
    'renewIntervalMs',
    options.renewIntervalMs ?? Math.max(1, Math.floor(visibilityTimeoutMs / 3)),
    { min: 1 },
  );
  if (options.renewIntervalMs !== undefined && renewIntervalMs >= visibilityTimeoutMs) {
    throw refuse(
      'renewIntervalMs',
      `is ${renewIntervalMs}, not shorter than visibilityTimeoutMs (${visibilityTimeoutMs})`,
      'must be shorter than visibilityTimeoutMs (a third of it is the default)',
    );
  }
  return {
    driver,
    jobs,
    queues,
    workerId: checkWorkerId(options.workerId),
    logger,
    random: options.random as (() => number) | undefined,
    defaultStepTimeoutMs: optionalNumber('defaultStepTimeoutMs', options.defaultStepTimeoutMs, 1),
    eventPollMs: optionalNumber('eventPollMs', options.eventPollMs, 1),
    concurrency,
    visibilityTimeoutMs,
    pollIntervalMs: check('pollIntervalMs', options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS, {
      min: 1,
    }),
    settleBatchMs: check('settleBatchMs', options.settleBatchMs ?? DEFAULT_SETTLE_BATCH_MS, {
      min: 0,
    }),
    renewIntervalMs,
    keyBusyDelayMs: check('keyBusyDelayMs', options.keyBusyDelayMs ?? DEFAULT_KEY_BUSY_DELAY_MS, {
      min: 1,
    }),
    prefetch: check('prefetch', options.prefetch ?? 0, {
      min: 0,
      max: MAX_CLAIM_BATCH,
      integer: true,
    }),
    // At least a second: it is also how often the worker looks, one list page per queue.
    staleReadyAfterMs: check(
      'staleReadyAfterMs',
      options.staleReadyAfterMs ?? DEFAULT_STALE_READY_AFTER_MS,
      { min: 1_000, integer: true },
    ),
  };
}
