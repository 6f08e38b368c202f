import { MAX_NAME_LENGTH } from '../../contract/limits.js';
import { jobInvalid } from '../../errors/refusals.js';

/** What `throttle` and `debounce` take: a key and a window of ms. */
export interface KeyedWindow {
  readonly key: string;
  readonly ms: number;
}

/**
 * `{ key, ms }` as an enqueue option gives it: a name-like key and a whole number of ms from 1 to
 * `maxMs` (`maxLabel` says it in words); otherwise JOB_INVALID naming `field`, `field.key` or
 * `field.ms`. Call it inside a `screening`: reading the fields may throw.
 */
export function keyedWindow(
  field: string,
  value: unknown,
  maxMs: number,
  maxLabel: string,
): KeyedWindow {
  if (typeof value !== 'object' || value === null) throw jobInvalid(field, 'must be { key, ms }');
  const { key, ms } = value as Partial<KeyedWindow>;
  if (typeof key !== 'string' || key === '' || key.length > MAX_NAME_LENGTH) {
    throw jobInvalid(
      `${field}.key`,
      `must be a non-empty string of at most ${MAX_NAME_LENGTH} characters`,
    );
  }
  if (typeof ms !== 'number' || !Number.isInteger(ms) || ms < 1 || ms > maxMs) {
    throw jobInvalid(`${field}.ms`, `must be an integer from 1 to ${maxMs} (${maxLabel})`);
  }
  return { key, ms };
}
