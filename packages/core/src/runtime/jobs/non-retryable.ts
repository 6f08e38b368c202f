/**
 * Thrown from a handler to give up at once: the job settles `dead` (or `failed` with
 * `deadLetter: false`) whatever attempts remain. Any error with `retryable: false` does the same.
 */
export class NonRetryableError extends Error {
  override readonly name: string = 'NonRetryableError';
  readonly retryable = false as const;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** False for an error marked `retryable: false` (a {@link NonRetryableError} among them). */
export function isRetryable(error: unknown): boolean {
  return !(
    typeof error === 'object' &&
    error !== null &&
    (error as { retryable?: unknown }).retryable === false
  );
}
