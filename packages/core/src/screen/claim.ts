import type { ScreenedClaim } from '../contract/driver.js';
import { MAX_CLAIM_BATCH } from '../contract/limits.js';
import type { ClaimRequest } from '../contract/records.js';
import { jobInvalid } from '../errors/refusals.js';
import {
  screenArray,
  screenDuration,
  screenInteger,
  screening,
  screenName,
  screenObject,
} from './values.js';

/** The claim's job-name filter: a non-empty array of valid names, deduped. */
function screenNames(value: unknown): readonly string[] {
  const names = screenArray('names', value);
  if (names.length === 0) {
    throw jobInvalid(
      'names',
      'must name at least one job name, or be left out to claim every name',
    );
  }
  return [...new Set(names.map((name) => screenName('names', name)))];
}

export const screenClaim = screening('claim request', (request: ClaimRequest): ScreenedClaim => {
  const input = screenObject('claim request', request);
  const given = screenArray('queues', input.queues);
  if (given.length === 0) throw jobInvalid('queues', 'must name at least one queue');
  const queues = [...new Set(given.map((queue) => screenName('queues', queue)))];
  const names = input.names === undefined ? undefined : screenNames(input.names);
  const drop = screenArray('dropExhausted', input.dropExhausted ?? []);
  if (input.onExhausted !== undefined && typeof input.onExhausted !== 'function') {
    throw jobInvalid('onExhausted', 'must be a function');
  }
  return {
    queues,
    limit: input.limit === undefined ? 1 : screenInteger('limit', input.limit, 1, MAX_CLAIM_BATCH),
    workerId: screenName('workerId', input.workerId),
    visibilityTimeoutMs: screenDuration('visibilityTimeoutMs', input.visibilityTimeoutMs),
    names,
    dropExhausted: [...new Set(drop.map((name) => screenName('dropExhausted', name)))],
  };
});
