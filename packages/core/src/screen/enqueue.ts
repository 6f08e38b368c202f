import { DEFAULT_MAX_ATTEMPTS, DEFAULT_QUEUE, MAX_ENQUEUE_BATCH } from '../contract/limits.js';
import type {
  EnqueueRequest,
  MarkAdvance,
  MarkedEnqueueRequest,
  ScreenedEnqueue,
} from '../contract/records.js';
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

export const PRIORITY_MIN = -2_147_483_648;
export const PRIORITY_MAX = 2_147_483_647;
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
  'parentId',
  'advanceMark',
]);
const MARK_FIELDS = new Set(['name', 'value']);

/** `advanceMark`: a mark name and a safe integer >= 0, and only with a caller `id`. */
function screenAdvanceMark(value: unknown, id: string | undefined): MarkAdvance | undefined {
  if (value === undefined) return undefined;
  const mark = screenObject('advanceMark', value);
  for (const key of Object.keys(mark)) {
    if (!MARK_FIELDS.has(key))
      throw jobInvalid(`advanceMark.${key}`, 'is not an advanceMark field');
  }
  if (id === undefined) {
    throw jobInvalid(
      'advanceMark',
      'needs an id: a retry or a racing enqueue of the same mark value meets the job by it',
    );
  }
  return {
    name: screenName('advanceMark.name', mark.name),
    value: screenInteger('advanceMark.value', mark.value, 0, Number.MAX_SAFE_INTEGER),
  };
}

/** `parentId`: a uuid, never the job's own id. */
function screenParentId(value: unknown, id: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const parentId = screenUuid('parentId', value);
  if (parentId === id) throw jobInvalid('parentId', 'names the job itself');
  return parentId;
}

/** Checks and normalises one enqueue request; JOB_INVALID names the first bad field. */
export const screenEnqueue = screening('request', screenOne);

function screenOne(
  request: EnqueueRequest | MarkedEnqueueRequest,
  maxPayloadBytes: number,
): ScreenedEnqueue {
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
  const id = input.id === undefined ? undefined : screenUuid('id', input.id);
  return {
    id,
    name: screenName('name', input.name),
    queue: input.queue === undefined ? DEFAULT_QUEUE : screenName('queue', input.queue),
    payload: screenJson('payload', input.payload ?? null, maxPayloadBytes).value,
    runAt: input.runAt === undefined ? undefined : screenInstant('runAt', input.runAt),
    priority:
      input.priority === undefined
        ? 0
        : screenInteger('priority', input.priority, PRIORITY_MIN, PRIORITY_MAX),
    maxAttempts: screenMaxAttempts(input.maxAttempts),
    idempotencyKey: screenOptionalName('idempotencyKey', input.idempotencyKey),
    onConflict,
    concurrencyKey: screenOptionalName('concurrencyKey', input.concurrencyKey),
    tenantId: screenOptionalName('tenantId', input.tenantId),
    traceparent: traceparent as string | undefined,
    enqueuedBy: screenOptionalName('enqueuedBy', input.enqueuedBy),
    parentId: screenParentId(input.parentId, id),
    advanceMark: screenAdvanceMark(input.advanceMark, id),
  };
}

/** A job's attempts in all: DEFAULT_MAX_ATTEMPTS when not given. */
export function screenMaxAttempts(value: unknown): number {
  return value === undefined
    ? DEFAULT_MAX_ATTEMPTS
    : screenInteger('maxAttempts', value, 1, 1_000_000);
}

/** Screens a batch: all or nothing, the refusal's `meta.index` says which request. */
export const screenEnqueueMany = screening(
  'requests',
  (requests: readonly EnqueueRequest[], maxPayloadBytes: number): ScreenedEnqueue[] => {
    const given = screenArray('requests', requests, MAX_ENQUEUE_BATCH);
    const screened: ScreenedEnqueue[] = [];
    for (let index = 0; index < given.length; index += 1) {
      try {
        const one = screenOne(given[index] as EnqueueRequest, maxPayloadBytes);
        if (one.advanceMark !== undefined) {
          throw jobInvalid('advanceMark', 'is for enqueue alone; enqueueMany refuses it');
        }
        screened.push(one);
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
