import { describeReceived } from '../../errors/received.js';
import { configInvalid } from '../../errors/refusals.js';
import type { BackoffOptions } from './job-types.js';

/** The backoff a job gets when its retry names none. */
export const DEFAULT_BACKOFF: Readonly<Required<BackoffOptions>> = Object.freeze({
  initialMs: 1_000,
  factor: 2,
  maxMs: 300_000,
  jitter: 0.2,
});

/**
 * The wait, ms, before the attempt after failed attempt number `attempt` (1-based):
 * `min(maxMs, initialMs * factor^(attempt-1))`, then scaled into `[d * (1 - jitter), d]` by
 * `random()` (in `[0, 1)`; injectable so tests get exact values). Rounded to whole ms.
 */
export function backoffDelay(
  backoff: Required<BackoffOptions>,
  attempt: number,
  random: () => number = Math.random,
): number {
  // Read once, in place: this runs on every failed attempt.
  let initialMs: unknown;
  let factor: unknown;
  let maxMs: unknown;
  let jitter: unknown;
  try {
    ({ initialMs, factor, maxMs, jitter } = backoff);
  } catch (error) {
    throw refuse('backoff', backoff, BACKOFF_ALLOWED, error);
  }
  if (!finite(initialMs) || !finite(factor) || !finite(maxMs) || !finite(jitter)) {
    throw refuse('backoff', backoff, BACKOFF_ALLOWED);
  }
  if (!finite(attempt)) {
    throw refuse('attempt', attempt, 'must be a finite number (the failed attempt, 1-based)');
  }
  if (typeof random !== 'function') {
    throw refuse('random', random, 'must be a function answering a number in [0, 1)');
  }
  const exponent = Math.max(0, attempt - 1);
  const capped = Math.min(maxMs, initialMs * factor ** exponent);
  const drawn = random();
  const spread = capped * jitter * Math.min(1, Math.max(0, finite(drawn) ? drawn : 0));
  return Math.max(0, Math.round(capped - spread));
}

const finite = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);

const BACKOFF_ALLOWED =
  'must be a job’s resolved retry.backoff: finite initialMs, factor, maxMs and jitter';

const EXAMPLE =
  'const backoff = { initialMs: 1_000, factor: 2, maxMs: 60_000, jitter: 0.2 }; backoffDelay(backoff, attempt = 1, random = Math.random)';

const refuse = (option: string, value: unknown, allowed: string, cause?: unknown) =>
  configInvalid({
    option,
    reason: `is ${describeReceived(value)}; it ${allowed}`,
    allowed,
    example: EXAMPLE,
    ...(cause === undefined ? {} : { cause }),
  });
