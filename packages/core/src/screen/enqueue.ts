import { DEFAULT_MAX_ATTEMPTS, DEFAULT_QUEUE, MAX_ENQUEUE_BATCH } from '../contract/limits.js';
import type { EnqueueRequest, ScreenedEnqueue } from '../contract/records.js';
import { BerthError, isBerthError } from '../errors/berth-error.js';
import { jobInvalid } from '../errors/refusals.js';
import {
  readFailure,
  screenArray,
  screenInstant,
  screenInteger,
  screening,
  screenJson,
  screenName,
  screenObject,
  screenOptionalName,
  screenUuid,
} from './values.js';

const PRIORITY_MIN = -2_147_483_648;
const PRIORITY_MAX = 2_147_483_647;
const TRACEPARENT = /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;
const KNOWN_FIELDS = new Set([
  'id',
  'name',
  'queue',
  'payload',
  'runAt',
  'priority',
  'maxAttempts',
  'idempotencyKey',
  'onConflict',
  'concurrencyKey',
  'tenantId',
  'traceparent',
  'enqueuedBy',
]);

/** Checks and normalises one enqueue request; JOB_INVALID names the first bad field. */
export const screenEnqueue = screening('request', screenOne);

function screenOne(request: EnqueueRequest, maxPayloadBytes: number): ScreenedEnqueue {
  const input = screenObject('request', request);
  // Own enumerable keys, as Object.keys lists them, without an array per request.
  for (const key in input) {
    if (!KNOWN_FIELDS.has(key) && Object.hasOwn(input, key)) {
      throw jobInvalid(key, 'is not an enqueue field');
    }
  }
  const onConflict = input.onConflict ?? 'dedupe';
  if (onConflict !== 'dedupe' && onConflict !== 'error') {
    throw jobInvalid('onConflict', 'must be "dedupe" or "error"');
  }
  const traceparent = input.traceparent;
  if (
    traceparent !== undefined &&
    (typeof traceparent !== 'string' || !TRACEPARENT.test(traceparent))
  ) {
    throw jobInvalid('traceparent', 'is not a W3C traceparent (00-<32 hex>-<16 hex>-<2 hex>)');
  }
  return {
    id: input.id === undefined ? undefined : screenUuid('id', input.id),
    name: screenName('name', input.name),
    queue: input.queue === undefined ? DEFAULT_QUEUE : screenName('queue', input.queue),
    payload: screenJson('payload', input.payload ?? null, maxPayloadBytes).value,
    runAt: input.runAt === undefined ? undefined : screenInstant('runAt', input.runAt),
    priority:
      input.priority === undefined
        ? 0
        : screenInteger('priority', input.priority, PRIORITY_MIN, PRIORITY_MAX),
    maxAttempts:
      input.maxAttempts === undefined
        ? DEFAULT_MAX_ATTEMPTS
        : screenInteger('maxAttempts', input.maxAttempts, 1, 1_000_000),
    idempotencyKey: screenOptionalName('idempotencyKey', input.idempotencyKey),
    onConflict,
    concurrencyKey: screenOptionalName('concurrencyKey', input.concurrencyKey),
    tenantId: screenOptionalName('tenantId', input.tenantId),
    traceparent: traceparent as string | undefined,
    enqueuedBy: screenOptionalName('enqueuedBy', input.enqueuedBy),
  };
}

/** Screens a batch: all or nothing, the refusal's `meta.index` says which request. */
export const screenEnqueueMany = screening(
  'requests',
  (requests: readonly EnqueueRequest[], maxPayloadBytes: number): ScreenedEnqueue[] => {
    const given = screenArray('requests', requests, MAX_ENQUEUE_BATCH);
    const screened: ScreenedEnqueue[] = [];
    for (let index = 0; index < given.length; index += 1) {
      try {
        screened.push(screenOne(given[index] as EnqueueRequest, maxPayloadBytes));
      } catch (failure) {
        // As `screenEnqueue` would refuse it alone, then placed in the batch.
        const error = readFailure('request', failure);
        if (isBerthError(error, 'JOB_INVALID')) {
          throw new BerthError({
            code: 'JOB_INVALID',
            detail: `request ${index}: ${error.detail}`,
            fix: error.fix,
            meta: { ...error.meta, index },
          });
        }
        throw error;
      }
    }
    return screened;
  },
);
