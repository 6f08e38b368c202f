import type { ScreenedClaim } from '../contract/driver.js';
import { MAX_CLAIM_BATCH } from '../contract/limits.js';
import type { ClaimRequest } from '../contract/records.js';
import { jobInvalid } from '../errors/refusals.js';
import { screenDuration, screenInteger, screenName, screenObject } from './values.js';

/** The claim's job-name filter: a non-empty array of valid names, deduped. */
function screenNames(names: unknown): readonly string[] {
  if (!Array.isArray(names)) throw jobInvalid('names', 'must be an array of job names');
  if (names.length === 0) {
    throw jobInvalid(
      'names',
      'must name at least one job name, or be left out to claim every name',
    );
  }
  return [...new Set(names.map((name: unknown) => screenName('names', name)))];
}

export function screenClaim(request: ClaimRequest): ScreenedClaim {
  const input = screenObject('claim request', request);
  if (!Array.isArray(input.queues)) throw jobInvalid('queues', 'must be an array of queue names');
  if (input.queues.length === 0) throw jobInvalid('queues', 'must name at least one queue');
  const queues = [...new Set(input.queues.map((queue: unknown) => screenName('queues', queue)))];
  const names = input.names === undefined ? undefined : screenNames(input.names);
  const drop = input.dropExhausted ?? [];
  if (!Array.isArray(drop)) throw jobInvalid('dropExhausted', 'must be an array of job names');
  if (input.onExhausted !== undefined && typeof input.onExhausted !== 'function') {
    throw jobInvalid('onExhausted', 'must be a function');
  }
  return {
    queues,
    limit: input.limit === undefined ? 1 : screenInteger('limit', input.limit, 1, MAX_CLAIM_BATCH),
    workerId: screenName('workerId', input.workerId),
    visibilityTimeoutMs: screenDuration('visibilityTimeoutMs', input.visibilityTimeoutMs),
    names,
    dropExhausted: [...new Set(drop.map((name: unknown) => screenName('dropExhausted', name)))],
  };
}
