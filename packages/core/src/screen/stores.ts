import type { FindEventOptions, PublishOptions } from '../contract/events.js';
import type { Json } from '../contract/records.js';
import type { StepRecord } from '../contract/steps.js';
import { jobInvalid } from '../errors/refusals.js';
import { screenEventIds, screenEventMatch } from './events.js';
import { screenJobError } from './settle.js';
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

const STEP_STATUSES = new Set(['completed', 'failed', 'sleeping', 'waiting']);

export const screenStep = screening('step', stepRecord);

function stepRecord(record: StepRecord, maxBytes: number): StepRecord {
  const input = screenObject('step', record);
  if (typeof input.status !== 'string' || !STEP_STATUSES.has(input.status)) {
    throw jobInvalid('status', 'is not a step status');
  }
  const eventName = screenOptionalName('eventName', input.eventName);
  const eventId = input.eventId === undefined ? undefined : screenUuid('eventId', input.eventId);
  return {
    runId: screenUuid('runId', input.runId),
    name: screenName('step name', input.name),
    status: input.status as StepRecord['status'],
    ...(input.output === undefined
      ? {}
      : { output: screenJson('output', input.output, maxBytes).value }),
    ...(input.error === undefined
      ? {}
      : { error: screenJobError(input.error as StepRecord['error'] & object) }),
    attempts: screenInteger('attempts', input.attempts, 0, 1_000_000),
    ...(input.wakeAt === undefined ? {} : { wakeAt: screenInstant('wakeAt', input.wakeAt) }),
    ...(eventName === undefined ? {} : { eventName }),
    ...(eventId === undefined ? {} : { eventId }),
    startedAt: screenInstant('startedAt', input.startedAt),
    updatedAt: screenInstant('updatedAt', input.updatedAt),
  };
}

export const screenPublish = screening('publish options', publishInput);

function publishInput(
  name: string,
  payload: unknown,
  options: PublishOptions = {},
  maxBytes: number,
): { name: string; payload: Json; options: PublishOptions } {
  const input = screenObject('publish options', options);
  return {
    name: screenName('event name', name),
    payload: screenJson('event payload', payload ?? null, maxBytes).value,
    options:
      input.ttl === undefined
        ? {}
        : { ttl: screenDuration('ttl', input.ttl, 10 * 365 * 24 * 3_600_000) },
  };
}

export const screenFind = screening('find options', findInput);

function findInput(
  name: string,
  options: FindEventOptions,
): { name: string; options: FindEventOptions } {
  const input = screenObject('find options', options);
  const match = screenEventMatch('match', input.match);
  const exclude = screenEventIds('exclude', input.exclude);
  return {
    name: screenName('event name', name),
    options: {
      after: screenInstant('after', input.after),
      ...(match === undefined ? {} : { match }),
      ...(exclude === undefined || exclude.length === 0 ? {} : { exclude }),
    },
  };
}

export const screenLeaseName = (field: string, value: unknown): string => screenName(field, value);
/** The queues a wake subscription listens on: an array, without holes, of queue names. */
export const screenSubscribeQueues = screening('queues', (value: readonly string[]): string[] =>
  screenArray('queues', value).map((queue) => screenName('queues', queue)),
);
/** A mark's value: a safe integer >= 0 (an instant, a counter). */
export const screenMarkValue = (value: unknown): number =>
  screenInteger('value', value, 0, Number.MAX_SAFE_INTEGER);
export const screenTtl = (value: unknown): number => screenDuration('ttlMs', value);
export const screenSlotLimit = (value: unknown): number =>
  screenInteger('limit', value, 1, 1_000_000);
