import type { Clock } from '../../clock.js';
import type { EnqueueRequest, Json } from '../../contract/records.js';
import { jobInvalid } from '../../errors/refusals.js';
import type { Mutable } from '../../mutable.js';
import { screening, screenObject } from '../../screen/values.js';
import type { AnyJobContract } from '../jobs/job-types.js';
import { validatePayload } from '../jobs/validate-payload.js';
import { activeTraceparent } from '../otel/traceparent.js';
import type { EnqueueOptions } from './client-types.js';
import { generationId, scopeOf, screenDebounce } from './supersede.js';
import { throttledId } from './throttle.js';

function runAtOf(clock: Clock, options: EnqueueOptions): number | undefined {
  if (options.delay === undefined) return options.runAt;
  if (options.runAt !== undefined) throw jobInvalid('delay', 'cannot be given together with runAt');
  if (typeof options.delay !== 'number' || !Number.isFinite(options.delay) || options.delay < 0) {
    throw jobInvalid('delay', 'must be a finite number of ms >= 0');
  }
  return options.delay === 0 ? undefined : clock.now() + options.delay;
}

function concurrencyKeyOf(job: AnyJobContract, payload: unknown, options: EnqueueOptions) {
  if (options.concurrencyKey !== undefined) return options.concurrencyKey;
  const key = job.concurrency?.key?.(payload);
  if (key !== undefined && typeof key !== 'string') {
    throw jobInvalid(
      'concurrencyKey',
      `must be a string; job ${job.name}'s concurrency.key answered ${typeof key}`,
    );
  }
  return key;
}

/**
 * A debounced enqueue, or one of a `whenBusy: 'replace'` job, takes a generation id (see
 * supersede.ts); a debounce also runs `ms` from now. Neither goes with a chosen id or throttle.
 */
function newestWins(
  request: Mutable<EnqueueRequest>,
  job: AnyJobContract,
  options: EnqueueOptions,
  now: number,
  concurrencyKey: string | undefined,
): void {
  if (options.debounce !== undefined) {
    for (const other of ['id', 'throttle', 'runAt', 'delay'] as const) {
      if (options[other] !== undefined) {
        throw jobInvalid('debounce', `cannot be given together with ${other}`);
      }
    }
    const { key, ms } = screenDebounce(options.debounce);
    request.id = generationId(now, scopeOf('debounce', job.name, options.tenantId, key));
    request.runAt = now + ms;
    return;
  }
  if (job.concurrency?.whenBusy === 'replace' && request.id === undefined) {
    request.id = generationId(now, scopeOf('replace', job.name, options.tenantId, concurrencyKey));
  }
}

/** A job definition as `defineJob` makes it; anything else is JOB_INVALID naming `field`. */
export const screenJobDefinition = screening(
  'job',
  (job: unknown, field: string): AnyJobContract => {
    const input = screenObject(field, job);
    const retry = input.retry as { maxAttempts?: unknown } | null | undefined;
    if (
      typeof input.name !== 'string' ||
      typeof input.queue !== 'string' ||
      retry === null ||
      typeof retry !== 'object' ||
      typeof retry.maxAttempts !== 'number'
    ) {
      throw jobInvalid(field, 'must be a job made by defineJob');
    }
    return job as AnyJobContract;
  },
);

/** The options as a plain copy read once: a throwing getter or trap is JOB_INVALID `options`. */
const screenOptions = screening('options', (options: unknown): EnqueueOptions => {
  if (options === undefined) return {};
  return { ...screenObject('options', options) } as EnqueueOptions;
});

/**
 * The driver request for one enqueue: the payload checked (and shaped) by the job's schema,
 * its queue, attempts and concurrency key from the definition, and the active trace captured.
 */
export async function toEnqueueRequest(
  clock: Clock,
  job: AnyJobContract,
  payload: unknown,
  given?: EnqueueOptions,
  producerTraceparent?: string,
): Promise<EnqueueRequest> {
  const options = screenOptions(given);
  // Read first: the caller's active span (or the enqueue's own) is the one to continue.
  const traceparent = options.traceparent ?? producerTraceparent ?? (await activeTraceparent());
  // Without a schema the payload goes to the driver's screen untouched: awaiting it here would
  // read its `then`, running a Proxy's trap or a getter before any screen sees it.
  const value = job.schema === undefined ? payload : await validatePayload(job, payload);
  const runAt = runAtOf(clock, options);
  const concurrencyKey = concurrencyKeyOf(job, value, options);
  const request: Mutable<EnqueueRequest> = {
    name: job.name,
    queue: options.queue ?? job.queue,
    payload: (value ?? null) as Json,
    maxAttempts: options.maxAttempts ?? job.retry.maxAttempts,
  };
  if (options.throttle !== undefined) {
    if (options.id !== undefined) throw jobInvalid('throttle', 'cannot be given together with id');
    request.id = throttledId(options.throttle, {
      name: job.name,
      tenantId: options.tenantId,
      now: clock.now(),
    });
  }
  if (options.id !== undefined) request.id = options.id;
  if (runAt !== undefined) request.runAt = runAt;
  newestWins(request, job, options, clock.now(), concurrencyKey);
  if (options.priority !== undefined) request.priority = options.priority;
  if (options.idempotencyKey !== undefined) request.idempotencyKey = options.idempotencyKey;
  if (options.onConflict !== undefined) request.onConflict = options.onConflict;
  if (options.tenantId !== undefined) request.tenantId = options.tenantId;
  if (concurrencyKey !== undefined) request.concurrencyKey = concurrencyKey;
  if (traceparent !== undefined) request.traceparent = traceparent;
  if (options.enqueuedBy !== undefined) request.enqueuedBy = options.enqueuedBy;
  return request;
}
