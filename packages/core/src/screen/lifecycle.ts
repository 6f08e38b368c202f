import {
  DEFAULT_LIFECYCLE_PAGE,
  type LifecycleEvent,
  type LifecycleReadRequest,
  MAX_LIFECYCLE_PAGE,
  MAX_LIFECYCLE_RETENTION,
  MIN_LIFECYCLE_RETENTION,
  type ScreenedLifecycleRead,
} from '../contract/lifecycle.js';
import { configInvalid, jobPageInvalid } from '../errors/refusals.js';
import { screenPurgeExpired } from './operator.js';
import { screening, screenObject, screenOptionalName, screenUuid } from './values.js';

/** The most characters a position may have; every driver's fit in far fewer. */
const MAX_POSITION_LENGTH = 200;

/** `read`'s request, filled in; a limit outside 1..MAX_LIFECYCLE_PAGE is JOB_PAGE_INVALID. */
export const screenLifecycleRead = screening(
  'lifecycle read',
  (request: LifecycleReadRequest = {}): ScreenedLifecycleRead => {
    const input = screenObject('lifecycle read', request);
    const limit = input.limit ?? DEFAULT_LIFECYCLE_PAGE;
    if (
      typeof limit !== 'number' ||
      !Number.isInteger(limit) ||
      limit < 1 ||
      limit > MAX_LIFECYCLE_PAGE
    ) {
      throw jobPageInvalid('limit', limit, {
        max: MAX_LIFECYCLE_PAGE,
        constant: 'MAX_LIFECYCLE_PAGE',
      });
    }
    const after = input.after;
    if (
      after !== undefined &&
      (typeof after !== 'string' || after.length === 0 || after.length > MAX_POSITION_LENGTH)
    ) {
      throw jobPageInvalid('cursor', after);
    }
    return {
      after,
      limit,
      queue: screenOptionalName('queue', input.queue),
      name: screenOptionalName('name', input.name),
      jobId: input.jobId === undefined ? undefined : screenUuid('jobId', input.jobId),
      tenantId: screenOptionalName('tenantId', input.tenantId),
    };
  },
);

/** `trim`'s options: the limit filled in, as `events.purgeExpired`'s. */
export const screenLifecycleTrim = (options?: { readonly limit?: number }): number =>
  screenPurgeExpired(options).limit;

/**
 * What a backend throws for an `after` it never made (malformed, or another store's): the same
 * JOB_PAGE_INVALID on every driver.
 */
export const lifecyclePositionInvalid = (after: string) => jobPageInvalid('cursor', after);

/** A driver's `lifecycleRetention` option: an integer in MIN..MAX_LIFECYCLE_RETENTION. */
export function checkLifecycleRetention(value: number): number {
  if (
    !Number.isInteger(value) ||
    value < MIN_LIFECYCLE_RETENTION ||
    value > MAX_LIFECYCLE_RETENTION
  ) {
    throw configInvalid({
      option: 'lifecycleRetention',
      reason: `is ${String(value)}`,
      allowed: `takes a whole number of events from ${MIN_LIFECYCLE_RETENTION} to ${MAX_LIFECYCLE_RETENTION}`,
      example: 'createMemoryDriver({ lifecycleRetention: 50_000 })',
    });
  }
  return value;
}

/** Whether `event` passes every filter `request` gives (none given: every event does). */
export const matchesLifecycleRead = (
  event: LifecycleEvent,
  request: ScreenedLifecycleRead,
): boolean =>
  (request.queue === undefined || event.queue === request.queue) &&
  (request.name === undefined || event.name === request.name) &&
  (request.jobId === undefined || event.jobId === request.jobId) &&
  (request.tenantId === undefined || event.tenantId === request.tenantId);

/**
 * Whether `request` filters at all: unfiltered, every event examined matches, so a walk needs
 * only `limit` of them, not LIFECYCLE_READ_SCAN.
 */
export const filtersLifecycleRead = (request: ScreenedLifecycleRead): boolean =>
  request.queue !== undefined ||
  request.name !== undefined ||
  request.jobId !== undefined ||
  request.tenantId !== undefined;
