import { errorCodeEntry } from './registry.js';

/** JSON-safe detail attached to an error: ids, states, limits. */
export type ErrorMeta = Readonly<Record<string, unknown>>;

export interface BerthErrorInput {
  readonly code: string;
  /** What happened, in a sentence. */
  readonly cause: string;
  /** What to run or change. Defaults to the code's registered fix. */
  readonly fix?: string;
  readonly meta?: ErrorMeta;
  /** The underlying error (a backend's own), kept for logs and `error.cause`. */
  readonly error?: unknown;
}

/** The serialised shape of a {@link BerthError}. */
export interface BerthErrorJSON {
  readonly name: 'BerthError';
  readonly code: string;
  readonly message: string;
  readonly cause: string;
  readonly fix: string;
  readonly meta: ErrorMeta;
}

/**
 * The one error class Berth throws. `code` is stable and registered; `message` may change.
 * A backend's error never reaches the app unwrapped: it rides in `error` (and the standard
 * `Error.cause`), described in words by `cause`.
 */
export class BerthError extends Error {
  override readonly name = 'BerthError';
  readonly code: string;
  /** What happened, in a sentence. Shadows `Error.cause`; the original error is `original`. */
  override readonly cause: string;
  readonly fix: string;
  readonly meta: ErrorMeta;
  /** The underlying error, when a backend or a handler raised one. */
  readonly original: unknown;

  constructor(input: BerthErrorInput) {
    const entry = errorCodeEntry(input.code);
    if (entry === undefined) {
      throw new Error(`BerthError code ${input.code} is not registered (registerErrorCode first)`);
    }
    super(`${input.code}: ${input.cause}`);
    this.code = input.code;
    this.cause = input.cause;
    this.fix = input.fix ?? entry.fix;
    this.meta = Object.freeze({ ...(input.meta ?? {}) });
    this.original = input.error;
  }

  toJSON(): BerthErrorJSON {
    return {
      name: 'BerthError',
      code: this.code,
      message: this.message,
      cause: this.cause,
      fix: this.fix,
      meta: this.meta,
    };
  }
}

/** True when `error` is a {@link BerthError}, and of `code` when one is given. */
export function isBerthError(error: unknown, code?: string): error is BerthError {
  return error instanceof BerthError && (code === undefined || error.code === code);
}
