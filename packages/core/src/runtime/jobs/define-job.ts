import { DEFAULT_MAX_ATTEMPTS, DEFAULT_QUEUE, MAX_NAME_LENGTH } from '../../contract/limits.js';
import type { Json } from '../../contract/records.js';
import { describeReceived } from '../../errors/received.js';
import { configInvalid } from '../../errors/refusals.js';
import { configObject, configuring } from '../../internal/config-screen.js';
import { optionExample } from '../../internal/option-example.js';
import type { RequireJson } from '../../json-shape.js';
import { DEFAULT_BACKOFF } from './backoff.js';
import type {
  BackoffOptions,
  ConcurrencyOptions,
  JobContract,
  JobContractOptions,
  JobDefinition,
  JobImplementation,
  JobOptions,
  JobResult,
  ResolvedRetry,
} from './job-types.js';
import { WHEN_BUSY } from './job-types.js';

/** A valid value of each job option, for the example in a CONFIG_INVALID fix. */
const SAMPLES: Readonly<Record<string, string>> = {
  name: "'send-email'",
  queue: "'emails'",
  run: 'async ({ payload }) => { /* ... */ }',
  schema: 'z.object({ to: z.string() })',
  timeout: '30_000',
  'rateLimit.limit': '10',
  'rateLimit.intervalMs': '1_000',
  'concurrency.limit': '1',
  'concurrency.key': '(payload) => payload.accountId',
  'concurrency.whenBusy': "'skip'",
  'retry.maxAttempts': '5',
  'retry.deadLetter': 'false',
  'retry.backoff.initialMs': '1_000',
  'retry.backoff.factor': '2',
  'retry.backoff.maxMs': '60_000',
  'retry.backoff.jitter': '0.2',
};

/** `path` is the option within the job definition (`retry.backoff.jitter`). */
const refuse = (job: string | undefined, path: string, reason: string, allowed?: string) =>
  configInvalid({
    option: job === undefined ? `job ${path}` : `job ${job}: ${path}`,
    reason,
    ...(allowed === undefined ? {} : { allowed }),
    example: optionExample('defineJob', path, SAMPLES[path] ?? '...'),
  });

const checkName = (job: string | undefined, path: string, value: unknown): string => {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_NAME_LENGTH) {
    throw refuse(job, path, `must be a string of 1 to ${MAX_NAME_LENGTH} characters`);
  }
  return value;
};

const checkNumber = (
  job: string,
  path: string,
  value: unknown,
  min: number,
  integer = false,
): number => {
  const allowed = `must be ${integer ? 'an integer' : 'a finite number'} >= ${min}`;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
    throw refuse(job, path, `is ${describeReceived(value)}; it ${allowed}`, allowed);
  }
  if (integer && !Number.isInteger(value)) {
    throw refuse(job, path, `is ${value}; it ${allowed}`, allowed);
  }
  return value;
};

/**
 * A nested group of options (`retry`, `retry.backoff`, `rateLimit`, `concurrency`): absent, or
 * an object. `sample` is one of its options, for the example.
 */
function group<T extends object>(
  name: string,
  path: string,
  value: T | undefined,
  sample: string,
): Partial<T> {
  if (value === undefined) return {};
  const example = optionExample('defineJob', sample, SAMPLES[sample] ?? '...');
  return configObject(`job ${name}: ${path}`, value, example) as Partial<T>;
}

function resolveBackoff(name: string, given: BackoffOptions | undefined): Required<BackoffOptions> {
  const backoff = group(name, 'retry.backoff', given, 'retry.backoff.initialMs');
  const resolved = {
    initialMs: backoff.initialMs ?? DEFAULT_BACKOFF.initialMs,
    factor: backoff.factor ?? DEFAULT_BACKOFF.factor,
    maxMs: backoff.maxMs ?? DEFAULT_BACKOFF.maxMs,
    jitter: backoff.jitter ?? DEFAULT_BACKOFF.jitter,
  };
  checkNumber(name, 'retry.backoff.initialMs', resolved.initialMs, 0);
  checkNumber(name, 'retry.backoff.factor', resolved.factor, 1);
  checkNumber(name, 'retry.backoff.maxMs', resolved.maxMs, 0);
  checkNumber(name, 'retry.backoff.jitter', resolved.jitter, 0);
  if (resolved.jitter > 1) {
    throw refuse(
      name,
      'retry.backoff.jitter',
      `is ${resolved.jitter}; it must be from 0 to 1`,
      'must be from 0 to 1',
    );
  }
  return Object.freeze(resolved);
}

function resolveRetry(
  name: string,
  given: JobContractOptions<unknown, unknown>['retry'],
): ResolvedRetry {
  const retry = group(name, 'retry', given, 'retry.maxAttempts');
  const maxAttempts = retry.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  checkNumber(name, 'retry.maxAttempts', maxAttempts, 1, true);
  if (retry.deadLetter !== undefined && typeof retry.deadLetter !== 'boolean') {
    throw refuse(name, 'retry.deadLetter', 'must be true (dead-letter) or false (settle failed)');
  }
  return Object.freeze({
    maxAttempts,
    backoff: resolveBackoff(name, retry.backoff),
    deadLetter: retry.deadLetter ?? true,
  });
}

function resolveConcurrency<TPayload>(
  name: string,
  concurrency: number | ConcurrencyOptions<TPayload> | undefined,
): ConcurrencyOptions<TPayload> | undefined {
  if (concurrency === undefined) return undefined;
  const options =
    typeof concurrency === 'number'
      ? { limit: concurrency }
      : (group(
          name,
          'concurrency',
          concurrency,
          'concurrency.limit',
        ) as ConcurrencyOptions<TPayload>);
  checkNumber(name, 'concurrency.limit', options.limit, 1, true);
  if (options.key !== undefined && typeof options.key !== 'function') {
    throw refuse(name, 'concurrency.key', 'must be a function from the payload to a key string');
  }
  if (options.whenBusy !== undefined && !WHEN_BUSY.includes(options.whenBusy)) {
    throw refuse(name, 'concurrency.whenBusy', `must be one of ${WHEN_BUSY.join(', ')}`);
  }
  return options;
}

const OPTIONS_EXAMPLE = "const options = { name: 'send-email', run: async ({ payload }) => {} }";
const CONTRACT_EXAMPLE =
  "const contract = declareJob({ name: 'send-email' }); implementJob(contract, { run })";

/**
 * Declares a job's contract without its handler: name, schema, options, and as type arguments
 * the payload and result types (`declareJob<Payload, Result>`; with a schema whose input differs
 * from its output, `declareJob<Output, Result, Input>`). A producer imports only this to enqueue
 * type-safely and read typed results; the worker pairs it with its handler (`implementJob`). A
 * payload or result type that is not JSON does not compile.
 */
export function declareJob<
  TPayload = Json,
  TResult = JobResult,
  TInput = TPayload,
  const TName extends string = string,
>(
  options: JobContractOptions<TInput, TPayload> & { readonly name: TName } & RequireJson<
      TPayload,
      'payload'
    > &
    RequireJson<TResult, 'result'>,
): JobContract<TInput, TPayload, TResult, TName> {
  return configuring('options', `${OPTIONS_EXAMPLE}; declareJob(options)`, () => {
    const given = configObject('options', options, `${OPTIONS_EXAMPLE}; declareJob(options)`);
    const name = checkName(undefined, 'name', given.name);
    const queue = checkName(name, 'queue', given.queue ?? DEFAULT_QUEUE);
    const schema = given.schema as { '~standard'?: { validate?: unknown } } | undefined;
    if (schema !== undefined && typeof schema?.['~standard']?.validate !== 'function') {
      throw refuse(name, 'schema', 'must be a Standard Schema validator (zod, valibot, arktype)');
    }
    if (given.timeout !== undefined) checkNumber(name, 'timeout', given.timeout, 1);
    if (given.rateLimit !== undefined) {
      const rateLimit = group(name, 'rateLimit', options.rateLimit, 'rateLimit.limit');
      checkNumber(name, 'rateLimit.limit', rateLimit.limit, 1, true);
      checkNumber(name, 'rateLimit.intervalMs', rateLimit.intervalMs, 1, true);
    }
    const concurrency = resolveConcurrency(name, options.concurrency);
    const { concurrency: _given, ...rest }: JobContractOptions<TInput, TPayload> = options;
    return Object.freeze({
      ...rest,
      // checkName answered the given name: its literal type is the caller's.
      name: name as TName,
      queue,
      retry: resolveRetry(name, options.retry),
      ...(concurrency === undefined ? {} : { concurrency }),
    });
  });
}

/**
 * A job definition from a contract (`declareJob`) and its handler: what the worker runs. `run`
 * receives the contract's payload type and must answer its result type.
 */
export function implementJob<TInput, TPayload, TResult, TName extends string = string>(
  contract: JobContract<TInput, TPayload, TResult, TName>,
  implementation: JobImplementation<TPayload, NoInfer<TResult>>,
): JobDefinition<TInput, TPayload, TResult, TName> {
  return configuring('contract', CONTRACT_EXAMPLE, () => {
    const job = configObject('contract', contract, CONTRACT_EXAMPLE);
    const retry = job.retry as { maxAttempts?: unknown } | null | undefined;
    if (
      typeof job.name !== 'string' ||
      typeof job.queue !== 'string' ||
      typeof retry?.maxAttempts !== 'number'
    ) {
      throw configInvalid({
        option: 'contract',
        reason: 'is not a job contract made by declareJob',
        allowed: 'must be a job contract made by declareJob',
        example: CONTRACT_EXAMPLE,
      });
    }
    const example =
      'implementJob(contract, implementation), with const implementation = { run: async () => {} }';
    const { run, onSettled } = configuring('implementation', example, () => {
      const { run, onSettled } = configObject('implementation', implementation, example);
      return { run, onSettled };
    });
    if (typeof run !== 'function') {
      throw refuse(job.name, 'run', 'must be the function that runs the job');
    }
    if (onSettled !== undefined && typeof onSettled !== 'function') {
      throw refuse(job.name, 'onSettled', 'must be a function, called once the job settled');
    }
    return Object.freeze({
      ...(contract as JobContract<TInput, TPayload, TResult, TName>),
      run: run as JobImplementation<TPayload, TResult>['run'],
      ...(onSettled === undefined
        ? {}
        : {
            onSettled: onSettled as NonNullable<JobImplementation<TPayload, TResult>['onSettled']>,
          }),
    });
  });
}

/** What `defineJob<TPayload>()` answers: `defineJob` with the payload fixed and the result inferred. */
export type DefineJobWithPayload<TPayload> = <
  TResult = JobResult,
  const TName extends string = string,
>(
  options: JobOptions<TPayload, TPayload, TResult> & { readonly name: TName } & RequireJson<
      TPayload,
      'payload'
    > &
    RequireJson<TResult, 'result'>,
) => JobDefinition<TPayload, TPayload, TResult, TName>;

/**
 * Defines a job: its contract and its handler at once. With a Standard Schema `schema` (zod,
 * valibot, arktype) the client checks each payload at enqueue and `run` receives the schema's
 * output type; without one the payload is `Json` (or the type given as the first type argument).
 * The result type is what `run` returns. A payload (the schema's output, which is what is stored)
 * or result that is not JSON, such as a `Date`, does not compile; interfaces are fine.
 *
 * `defineJob<TPayload>()({ ... })` types the payload and still infers the result from `run`:
 * TypeScript infers no type argument once one is given, so `defineJob<TPayload>({ ... })` types
 * the result as stored JSON.
 */
export function defineJob<TPayload>(): DefineJobWithPayload<TPayload>;
export function defineJob<
  TInput = Json,
  TPayload = TInput,
  TResult = JobResult,
  const TName extends string = string,
>(
  options: JobOptions<TInput, TPayload, TResult> & { readonly name: TName } & RequireJson<
      TPayload,
      'payload'
    > &
    RequireJson<TResult, 'result'>,
): JobDefinition<TInput, TPayload, TResult, TName>;
export function defineJob<TInput = Json, TPayload = TInput, TResult = JobResult>(
  ...given: [] | [JobOptions<TInput, TPayload, TResult>]
): JobDefinition<TInput, TPayload, TResult> | DefineJobWithPayload<TPayload> {
  if (given.length === 0) {
    return ((options: JobOptions<TPayload, TPayload, unknown>) =>
      defineJobOf(options)) as unknown as DefineJobWithPayload<TPayload>;
  }
  return defineJobOf(given[0]);
}

function defineJobOf<TInput, TPayload, TResult>(
  options: JobOptions<TInput, TPayload, TResult>,
): JobDefinition<TInput, TPayload, TResult> {
  const example = `${OPTIONS_EXAMPLE}; defineJob(options)`;
  return configuring('options', example, () => {
    configObject('options', options, example);
    const { run, onSettled, ...contract }: JobOptions<TInput, TPayload, TResult> = options;
    const name = checkName(undefined, 'name', contract.name);
    if (typeof run !== 'function') {
      throw refuse(name, 'run', 'must be the function that runs the job');
    }
    const declared = declareJob<TPayload, TResult, TInput>(
      contract as JobContractOptions<TInput, TPayload> &
        RequireJson<TPayload, 'payload'> &
        RequireJson<TResult, 'result'>,
    );
    return implementJob(declared, onSettled === undefined ? { run } : { run, onSettled });
  });
}
