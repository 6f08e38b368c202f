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
  const exponent = Math.max(0, attempt - 1);
  const capped = Math.min(backoff.maxMs, backoff.initialMs * backoff.factor ** exponent);
  const spread = capped * backoff.jitter * Math.min(1, Math.max(0, random()));
  return Math.max(0, Math.round(capped - spread));
}
