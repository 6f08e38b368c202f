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
  screenInstant,
  screenInteger,
  screenName,
  screenObject,
  screenOptionalName,
  screenUuid,
} from './values.js';

export const screenId = (id: unknown): string => screenUuid('id', id);

export function screenById(options: ByIdOptions = {}): ByIdOptions {
  const input = screenObject('options', options);
  const tenantId = screenOptionalName('tenantId', input.tenantId);
  return tenantId === undefined ? {} : { tenantId };
}

export function screenRequeue(options: RequeueOptions = {}): RequeueOptions {
  const input = screenObject('requeue options', options);
  const fromStep =
    input.fromStep === undefined ? undefined : screenName('fromStep', input.fromStep);
  return { ...screenById(input), ...(fromStep === undefined ? {} : { fromStep }) };
}

export function screenPurge(request: PurgeRequest): ScreenedPurge {
  const input = screenObject('purge request', request);
  if (!Array.isArray(input.states) || input.states.length === 0) {
    throw jobInvalid('states', 'must name at least one terminal state');
  }
  for (const state of input.states) {
    if (!isJobState(state) || !TERMINAL_STATES.has(state)) {
      throw jobInvalid('states', `holds ${JSON.stringify(state)}, which is not a terminal state`);
    }
  }
  const ids = input.ids === undefined ? undefined : screenPurgeIds(input.ids);
  return {
    states: [...new Set(input.states)],
    olderThan: screenInstant('olderThan', input.olderThan),
    ...(ids === undefined ? {} : { ids }),
    limit: screenPurgeLimit(input.limit),
  };
}

/** `purgeExpired`'s options: the limit filled in. */
export function screenPurgeExpired(options: PurgeExpiredOptions = {}): { limit: number } {
  const input = screenObject('purge options', options);
  return { limit: screenPurgeLimit(input.limit) };
}

function screenPurgeLimit(limit: unknown): number {
  return limit === undefined
    ? DEFAULT_PURGE_LIMIT
    : screenInteger('limit', limit, 1, MAX_PURGE_LIMIT);
}

/** An empty list is refused rather than read as "no id filter": it would purge everything. */
function screenPurgeIds(ids: unknown): string[] {
  if (!Array.isArray(ids) || ids.length === 0 || ids.length > MAX_JOB_PAGE) {
    throw jobInvalid('ids', `must be an array of 1 to ${MAX_JOB_PAGE} job ids`);
  }
  return [...new Set(ids.map((id) => screenUuid('ids', id)))];
}
