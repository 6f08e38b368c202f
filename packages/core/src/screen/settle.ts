import { MAX_ERROR_MESSAGE_LENGTH, MAX_ERROR_STACK_LENGTH } from '../contract/limits.js';
import type {
  AckItem,
  AckOptions,
  Fence,
  JobError,
  NackItem,
  NackOptions,
  SuspendOptions,
} from '../contract/records.js';
import { jobInvalid } from '../errors/refusals.js';
import { screenEventIds, screenEventMatch } from './events.js';
import {
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
} from './values.js';

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
  const message = messageOf(input.message);
  const code = screenOptionalName('error.code', input.code);
  const stack =
    typeof input.stack === 'string' ? input.stack.slice(0, MAX_ERROR_STACK_LENGTH) : undefined;
  const clean = (text: string) =>
    (text.isWellFormed() ? text : text.toWellFormed()).replaceAll('\u0000', '');
  return {
    ...(code === undefined ? {} : { code }),
    message: clean(message.slice(0, MAX_ERROR_MESSAGE_LENGTH)),
    ...(stack === undefined ? {} : { stack: clean(stack) }),
  };
}

export const screenAck = screening(
  'ack options',
  (options: AckOptions = {}, maxBytes: number): AckOptions => {
    const input = screenObject('ack options', options);
    return input.result === undefined
      ? {}
      : { result: screenJson('result', input.result, maxBytes).value };
  },
);

export const screenNack = screening('nack options', nackOptions);

function nackOptions(options: NackOptions): NackOptions {
  const input = screenObject('nack options', options);
  if (input.final !== undefined && typeof input.final !== 'boolean')
    throw jobInvalid('final', 'must be a boolean');
  if (input.deadLetter !== undefined && typeof input.deadLetter !== 'boolean') {
    throw jobInvalid('deadLetter', 'must be a boolean');
  }
  return {
    error: screenJobError(input.error as JobError),
    ...(input.retryAt === undefined ? {} : { retryAt: screenInstant('retryAt', input.retryAt) }),
    ...(input.final === undefined ? {} : { final: input.final }),
    ...(input.deadLetter === undefined ? {} : { deadLetter: input.deadLetter }),
  };
}

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

/** A batch's items: an array without holes of objects, each screened as its single call. */
const batchItems = (items: unknown): Record<string, unknown>[] =>
  screenArray('items', items).map((item, index) => screenObject(`items[${index}]`, item));

export const screenAckItems = screening(
  'items',
  (items: readonly AckItem[], maxBytes: number): AckItem[] =>
    batchItems(items).map((item) => ({
      fence: screenFence(item.fence as Fence),
      ...screenAck(item, maxBytes),
    })),
);

export const screenNackItems = screening('items', (items: readonly NackItem[]): NackItem[] =>
  batchItems(items).map((item) => ({
    fence: screenFence(item.fence as Fence),
    ...screenNack(item as unknown as NackOptions),
  })),
);
