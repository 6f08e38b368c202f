import type { PurgeExpiredOptions } from '../contract/events.js';
import { DEFAULT_PURGE_LIMIT, MAX_JOB_PAGE, MAX_PURGE_LIMIT } from '../contract/limits.js';
import type {
  ByIdOptions,
  PurgeRequest,
  RequeueOptions,
  ScreenedPurge,
} from '../contract/records.js';
import { isJobState, TERMINAL_STATES } from '../contract/states.js';
import { jobInvalid } from '../errors/refusals.js';
import {
  describeReceived,
  screenArray,
  screenInstant,
  screenInteger,
  screening,
  screenName,
  screenObject,
  screenOptionalName,
  screenUuid,
} from './values.js';

export const screenId = (id: unknown): string => screenUuid('id', id);

export const screenById = screening('options', (options: ByIdOptions = {}): ByIdOptions => {
  const input = screenObject('options', options);
  const tenantId = screenOptionalName('tenantId', input.tenantId);
  return tenantId === undefined ? {} : { tenantId };
});

export const screenRequeue = screening('requeue options', requeueOptions);

function requeueOptions(options: RequeueOptions = {}): RequeueOptions {
  const input = screenObject('requeue options', options);
  const fromStep =
    input.fromStep === undefined ? undefined : screenName('fromStep', input.fromStep);
  return { ...screenById(input), ...(fromStep === undefined ? {} : { fromStep }) };
}

export const screenPurge = screening('purge request', purgeRequest);

function purgeRequest(request: PurgeRequest): ScreenedPurge {
  const input = screenObject('purge request', request);
  const states = screenArray('states', input.states);
  if (states.length === 0) throw jobInvalid('states', 'must name at least one terminal state');
  for (const state of states) {
    if (!isJobState(state) || !TERMINAL_STATES.has(state)) {
      throw jobInvalid('states', `holds ${describeReceived(state)}, which is not a terminal state`);
    }
  }
  const ids = input.ids === undefined ? undefined : screenPurgeIds(input.ids);
  return {
    states: [...new Set(states as PurgeRequest['states'])],
    olderThan: screenInstant('olderThan', input.olderThan),
    ...(ids === undefined ? {} : { ids }),
    limit: screenPurgeLimit(input.limit),
  };
}

/** `purgeExpired`'s options: the limit filled in. */
export const screenPurgeExpired = screening(
  'purge options',
  (options: PurgeExpiredOptions = {}): { limit: number } => {
    const input = screenObject('purge options', options);
    return { limit: screenPurgeLimit(input.limit) };
  },
);

function screenPurgeLimit(limit: unknown): number {
  return limit === undefined
    ? DEFAULT_PURGE_LIMIT
    : screenInteger('limit', limit, 1, MAX_PURGE_LIMIT);
}

/** An empty list is refused rather than read as "no id filter": it would purge everything. */
function screenPurgeIds(value: unknown): string[] {
  const ids = screenArray('ids', value, MAX_JOB_PAGE);
  if (ids.length === 0) throw jobInvalid('ids', `must be an array of 1 to ${MAX_JOB_PAGE} job ids`);
  return [...new Set(ids.map((id) => screenUuid('ids', id)))];
}
