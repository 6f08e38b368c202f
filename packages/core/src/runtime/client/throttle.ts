import { nameUuid } from '../../internal/name-uuid.js';
import { screening } from '../../screen/values.js';
import { keyedWindow } from './keyed-window.js';

/** The longest throttle window: a year. */
export const MAX_THROTTLE_MS = 366 * 24 * 3_600_000;

/** At most one job per key per window (`EnqueueOptions.throttle`). */
export interface ThrottleOptions {
  /** What is throttled: one job of this name (and tenant) per key per window. */
  readonly key: string;
  /** The window, ms: fixed windows from the epoch (`floor(now / ms)`), as pg-boss's singletonSeconds. */
  readonly ms: number;
}

/**
 * The job id of a throttled enqueue: a name-based uuid of (job name, tenant, key, window), so
 * every enqueue of the same window meets the first one's id and answers that job (`deduped`),
 * on every driver, whatever state it reached, for as long as its row exists.
 */
interface ThrottleInput {
  readonly name: string;
  readonly tenantId: string | undefined;
  readonly now: number;
}

// Screened: a field that throws when read (a getter, a revoked Proxy) is JOB_INVALID too.
export const throttledId = screening(
  'throttle',
  (throttle: unknown, input: ThrottleInput): string => {
    const { key, ms } = keyedWindow('throttle', throttle, MAX_THROTTLE_MS, 'a year');
    const window = Math.floor(input.now / ms);
    return nameUuid(
      `throttle:${JSON.stringify([input.name, input.tenantId ?? null, key, ms, window])}`,
    );
  },
);
