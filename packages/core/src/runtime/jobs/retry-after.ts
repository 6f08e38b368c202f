/**
 * Thrown from a handler to name when the next attempt may start, in place of the job's backoff
 * (a rate-limited API's `Retry-After`, a resource known to be busy until a time). It counts as
 * an attempt like any error: on the last attempt the job settles as usual. Any error with a
 * finite, non-negative `retryAfterMs` does the same.
 */
export class RetryAfterError extends Error {
  override readonly name: string = 'RetryAfterError';
  readonly retryAfterMs: number;

  constructor(message: string, retryAfterMs: number, options?: { cause?: unknown }) {
    super(message, options);
    this.retryAfterMs = retryAfterMs;
  }
}

/** The wait an error names for the next attempt (ms, rounded), or undefined for the backoff. */
export function retryAfterOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const named = (error as { retryAfterMs?: unknown }).retryAfterMs;
  if (typeof named !== 'number' || !Number.isFinite(named) || named < 0) return undefined;
  return Math.round(named);
}
