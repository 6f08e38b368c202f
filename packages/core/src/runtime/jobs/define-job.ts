import { DEFAULT_MAX_ATTEMPTS, DEFAULT_QUEUE, MAX_NAME_LENGTH } from '../../contract/limits.js';
import type { Json } from '../../contract/records.js';
import { configInvalid } from '../../errors/refusals.js';
import { DEFAULT_BACKOFF } from './backoff.js';
import type {
  BackoffOptions,
  ConcurrencyOptions,
  JobDefinition,
  JobOptions,
  ResolvedRetry,
} from './job-types.js';

const checkName = (option: string, value: unknown): string => {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_NAME_LENGTH) {
    throw configInvalid(option, `must be a string of 1 to ${MAX_NAME_LENGTH} characters`);
  }
  return value;
};

const checkNumber = (option: string, value: unknown, min: number, integer = false): number => {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
    throw configInvalid(option, `must be a finite number >= ${min}`);
  }
  if (integer && !Number.isInteger(value)) throw configInvalid(option, 'must be an integer');
  return value;
};

function resolveBackoff(name: string, backoff: BackoffOptions = {}): Required<BackoffOptions> {
  const at = (field: string) => `job ${name}: retry.backoff.${field}`;
  const resolved = { ...DEFAULT_BACKOFF, ...backoff };
  checkNumber(at('initialMs'), resolved.initialMs, 0);
  checkNumber(at('factor'), resolved.factor, 1);
  checkNumber(at('maxMs'), resolved.maxMs, 0);
  checkNumber(at('jitter'), resolved.jitter, 0);
  if (resolved.jitter > 1) throw configInvalid(at('jitter'), 'must be at most 1');
  return Object.freeze(resolved);
}

function resolveRetry(name: string, retry: JobOptions<unknown, unknown>['retry']): ResolvedRetry {
  const maxAttempts = retry?.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  checkNumber(`job ${name}: retry.maxAttempts`, maxAttempts, 1, true);
  if (retry?.deadLetter !== undefined && typeof retry.deadLetter !== 'boolean') {
    throw configInvalid(`job ${name}: retry.deadLetter`, 'must be a boolean');
  }
  return Object.freeze({
    maxAttempts,
    backoff: resolveBackoff(name, retry?.backoff),
    deadLetter: retry?.deadLetter ?? true,
  });
}

function resolveConcurrency<TPayload>(
  name: string,
  concurrency: number | ConcurrencyOptions<TPayload> | undefined,
): ConcurrencyOptions<TPayload> | undefined {
  if (concurrency === undefined) return undefined;
  const options = typeof concurrency === 'number' ? { limit: concurrency } : concurrency;
  checkNumber(`job ${name}: concurrency.limit`, options.limit, 1, true);
  if (options.key !== undefined && typeof options.key !== 'function') {
    throw configInvalid(`job ${name}: concurrency.key`, 'must be a function of the payload');
  }
  return options;
}

/**
 * Defines a job. With a Standard Schema `schema` (zod, valibot, arktype) the client checks each
 * payload at enqueue and `run` receives the schema's output type; without one the payload is
 * `Json` (or the type given as the first type argument).
 */
export function defineJob<TInput = Json, TPayload = TInput>(
  options: JobOptions<TInput, TPayload>,
): JobDefinition<TInput, TPayload> {
  const name = checkName('job name', options.name);
  const queue = checkName(`job ${name}: queue`, options.queue ?? DEFAULT_QUEUE);
  if (typeof options.run !== 'function')
    throw configInvalid(`job ${name}: run`, 'must be a function');
  if (options.schema !== undefined && typeof options.schema['~standard']?.validate !== 'function') {
    throw configInvalid(`job ${name}: schema`, 'must be a Standard Schema validator');
  }
  if (options.timeout !== undefined) checkNumber(`job ${name}: timeout`, options.timeout, 1);
  if (options.rateLimit !== undefined) {
    checkNumber(`job ${name}: rateLimit.limit`, options.rateLimit.limit, 1, true);
    checkNumber(`job ${name}: rateLimit.intervalMs`, options.rateLimit.intervalMs, 1, true);
  }
  const concurrency = resolveConcurrency(name, options.concurrency);
  const { concurrency: _given, ...rest } = options;
  return Object.freeze({
    ...rest,
    name,
    queue,
    retry: resolveRetry(name, options.retry),
    ...(concurrency === undefined ? {} : { concurrency }),
  });
}
