import { MAX_NAME_LENGTH } from '../contract/limits.js';
import { configInvalid } from '../errors/refusals.js';
import { defineJob } from '../runtime/jobs/define-job.js';
import type { JobContext } from '../runtime/jobs/job-types.js';
import { screenCountOption } from '../screen/count-option.js';
import { runBackfill } from './runner.js';
import type {
  BackfillDefinition,
  BackfillJobPayload,
  BackfillJobResult,
  BackfillOptions,
} from './types.js';

/** The runner job's name for backfill `name`. */
export const backfillJobName = (name: string): string => `backfill:${name}`;

const EXAMPLE =
  "defineBackfill({ name: 'reindex-users', batch: 500, pass: async ({ cursor, limit }) => ({ rows: 0, next: null }) })";

function checkOptions<TTx>(options: BackfillOptions<TTx>): void {
  const { name } = options;
  const longest = MAX_NAME_LENGTH - backfillJobName('').length;
  if (typeof name !== 'string' || name.length === 0 || name.length > longest) {
    throw configInvalid({
      option: 'name',
      reason: `must be a non-empty string of at most ${longest} characters`,
      example: EXAMPLE,
    });
  }
  if (typeof options.pass !== 'function') {
    throw configInvalid({ option: 'pass', reason: 'must be an async function', example: EXAMPLE });
  }
  screenCountOption('batch', options.batch, 1_000_000, EXAMPLE);
  screenCountOption('concurrency', options.concurrency, 1_000, EXAMPLE);
  const rate = options.rateLimit;
  if (rate !== undefined) {
    screenCountOption('rateLimit.rows', rate.rows ?? 0, Number.MAX_SAFE_INTEGER, EXAMPLE);
    screenCountOption('rateLimit.intervalMs', rate.intervalMs ?? 0, 86_400_000, EXAMPLE);
  }
  if (options.transaction !== undefined && typeof options.transaction.run !== 'function') {
    throw configInvalid({
      option: 'transaction',
      reason: 'must have a run(work) method, as pgBackfillTransaction({ pool }) answers',
      example: EXAMPLE,
    });
  }
}

/**
 * A backfill: walks a collection by cursor in passes, each pass committed to the driver's
 * ledger before the next begins, so a killed worker resumes at the last committed cursor. The
 * answer is the runner job's definition: give it to `createWorker({ jobs })`, and start runs
 * with `client.backfills.start(backfill)`.
 */
export function defineBackfill<TTx = undefined>(options: BackfillOptions<TTx>): BackfillDefinition {
  checkOptions(options);
  const resolved = { ...options, batch: options.batch ?? 100 };
  const job = defineJob<BackfillJobPayload, BackfillJobPayload, BackfillJobResult>({
    name: backfillJobName(options.name),
    ...(options.queue === undefined ? {} : { queue: options.queue }),
    ...(options.retry === undefined ? {} : { retry: options.retry }),
    run: (context: JobContext<BackfillJobPayload>) => runBackfill(resolved, context),
  });
  return Object.freeze({
    ...job,
    backfill: Object.freeze({ name: options.name, concurrency: options.concurrency ?? 1 }),
  });
}
