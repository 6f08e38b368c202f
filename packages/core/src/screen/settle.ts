import { MAX_ERROR_MESSAGE_LENGTH, MAX_ERROR_STACK_LENGTH } from '../contract/limits.js';
import type {
  AckItem,
  AckOptions,
  Fence,
  JobError,
  Json,
  NackItem,
  NackOptions,
  SuspendOptions,
} from '../contract/records.js';
import { jobInvalid } from '../errors/refusals.js';
import { screenEventIds, screenEventMatch } from './events.js';
import {
  isObject,
  screenArray,
  screenDuration,
  screenInstant,
  screenInteger,
  screening,
  screenJson,
  screenName,
  screenObject,
  screenOptionalName,
  screenUuid,
  storable,
} from './values.js';

type Writable<T> = { -readonly [K in keyof T]: T[K] };

export const screenFence = screening('fence', (fence: Fence): Fence => {
  const input = screenObject('fence', fence);
  return {
    jobId: screenUuid('fence.jobId', input.jobId),
    workerId: screenName('fence.workerId', input.workerId),
    claim: screenInteger('fence.claim', input.claim, 0, Number.MAX_SAFE_INTEGER),
  };
});

/** A failed attempt's message: text as given, a number or boolean as text, nothing else. */
function messageOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw jobInvalid('error.message', 'must be a string');
}

/** Cuts what a failed attempt left to the stored bounds; a missing message becomes "". */
export function screenJobError(error: JobError): JobError {
  const input = screenObject('error', error);
  const message = storable(messageOf(input.message).slice(0, MAX_ERROR_MESSAGE_LENGTH));
  const code = screenOptionalName('error.code', input.code);
  const screened: Writable<JobError> = code === undefined ? { message } : { code, message };
  if (typeof input.stack === 'string') {
    screened.stack = storable(input.stack.slice(0, MAX_ERROR_STACK_LENGTH));
  }
  return screened;
}

/** The result an ack stores, screened; `undefined` when it stores none. */
const ackResult = screening(
  'ack options',
  (options: AckOptions | undefined, maxBytes: number): Json | undefined => {
    const input = screenObject('ack options', options === undefined ? {} : options);
    return input.result === undefined
      ? undefined
      : screenJson('result', input.result, maxBytes).value;
  },
);

export const screenAck = (options: AckOptions | undefined, maxBytes: number): AckOptions => {
  const result = ackResult(options, maxBytes);
  return result === undefined ? {} : { result };
};

/** A nack's options, field by field, in the order a refusal names them. */
function nackFields(options: NackOptions): NackOptions {
  const input = screenObject('nack options', options);
  if (input.final !== undefined && typeof input.final !== 'boolean')
    throw jobInvalid('final', 'must be a boolean');
  if (input.deadLetter !== undefined && typeof input.deadLetter !== 'boolean') {
    throw jobInvalid('deadLetter', 'must be a boolean');
  }
  if (input.cancel !== undefined && typeof input.cancel !== 'boolean') {
    throw jobInvalid('cancel', 'must be a boolean');
  }
  const screened: Writable<NackOptions> = { error: screenJobError(input.error as JobError) };
  if (input.retryAt !== undefined) screened.retryAt = screenInstant('retryAt', input.retryAt);
  if (input.final !== undefined) screened.final = input.final;
  if (input.deadLetter !== undefined) screened.deadLetter = input.deadLetter;
  if (input.cancel !== undefined) screened.cancel = input.cancel;
  return screened;
}

export const screenNack = screening('nack options', nackFields);

export const screenSuspend = screening('suspend options', suspendOptions);

function suspendOptions(options: SuspendOptions): SuspendOptions {
  const input = screenObject('suspend options', options);
  const waitFor = screenOptionalName('waitFor', input.waitFor);
  if (input.eventsSince !== undefined && waitFor === undefined) {
    throw jobInvalid('eventsSince', 'is only meaningful with waitFor');
  }
  for (const field of ['eventsMatch', 'eventsExclude'] as const) {
    if (input[field] !== undefined && input.eventsSince === undefined) {
      throw jobInvalid(field, 'is only meaningful with eventsSince');
    }
  }
  const eventsMatch = screenEventMatch('eventsMatch', input.eventsMatch);
  const eventsExclude = screenEventIds('eventsExclude', input.eventsExclude);
  return {
    until: screenInstant('until', input.until),
    ...(waitFor === undefined ? {} : { waitFor }),
    ...(input.eventsSince === undefined
      ? {}
      : { eventsSince: screenInstant('eventsSince', input.eventsSince) }),
    ...(eventsMatch === undefined ? {} : { eventsMatch }),
    ...(eventsExclude === undefined || eventsExclude.length === 0 ? {} : { eventsExclude }),
  };
}

export const screenVisibility = (value: unknown): number =>
  screenDuration('visibilityTimeoutMs', value);

/** A batch's items: an array without holes of objects (named `items[i]` when one is not). */
function batchItems(items: unknown): Record<string, unknown>[] {
  const given = screenArray('items', items);
  for (let index = 0; index < given.length; index += 1) {
    if (!isObject(given[index])) throw jobInvalid(`items[${index}]`, 'must be an object');
  }
  return given as Record<string, unknown>[];
}

/** Each item screened as its single call would be: one loop, no closure or spread per item. */
export const screenAckItems = screening(
  'items',
  (items: readonly AckItem[], maxBytes: number): AckItem[] => {
    const given = batchItems(items);
    const screened: AckItem[] = [];
    for (const item of given) {
      const fence = screenFence(item.fence as Fence);
      const result = ackResult(item as AckOptions, maxBytes);
      screened.push(result === undefined ? { fence } : { fence, result });
    }
    return screened;
  },
);

export const screenNackItems = screening('items', (items: readonly NackItem[]): NackItem[] => {
  const given = batchItems(items);
  const screened: NackItem[] = [];
  for (const item of given) {
    const fence = screenFence(item.fence as Fence);
    // A fresh object of the screen's: the fence joins it rather than both being spread anew.
    const nack = screenNack(item as unknown as NackOptions) as Writable<NackItem>;
    nack.fence = fence;
    screened.push(nack);
  }
  return screened;
});
