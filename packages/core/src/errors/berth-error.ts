import { toJsonMeta } from './json-meta.js';
import type { BerthErrorCode, BerthErrorMetas } from './metas.js';
import { errorCodeEntry } from './registry.js';

/** `meta` is required when the code's meta has a required field, optional otherwise. */
type MetaInput<C extends BerthErrorCode> = object extends BerthErrorMetas[C]
  ? { readonly meta?: BerthErrorMetas[C] }
  : { readonly meta: BerthErrorMetas[C] };

export type BerthErrorInput<C extends BerthErrorCode = BerthErrorCode> = {
  readonly code: C;
  /** What happened, in one sentence. */
  readonly detail: string;
  /** What to run or change. Defaults to the code's registered fix. */
  readonly fix?: string;
  /** The underlying error (a backend's own), kept as the standard `error.cause`. */
  readonly cause?: unknown;
} & MetaInput<C>;

/** What `toJSON()` shows of an error's `cause`: strings only, always serialisable. */
export interface BerthErrorCauseJSON {
  readonly name: string;
  readonly message: string;
  readonly code?: string;
}

/** The serialised shape of a {@link BerthError}. */
export interface BerthErrorJSON<C extends BerthErrorCode = BerthErrorCode> {
  readonly name: 'BerthError';
  readonly code: C;
  readonly message: string;
  readonly detail: string;
  readonly fix: string;
  readonly meta: BerthErrorMetas[C];
  readonly cause?: BerthErrorCauseJSON;
}

const text = (value: unknown): string | undefined => {
  try {
    return typeof value === 'string' ? value : value === undefined ? undefined : String(value);
  } catch {
    return undefined;
  }
};

/** Reads a cause's name, message and code without trusting it to behave. */
function describeCause(cause: unknown): BerthErrorCauseJSON {
  if (cause === null || typeof cause !== 'object') {
    return { name: typeof cause, message: text(cause) ?? '' };
  }
  try {
    const { name, message, code } = cause as { name?: unknown; message?: unknown; code?: unknown };
    const codeText = typeof code === 'string' || typeof code === 'number' ? String(code) : '';
    return {
      name: text(name) ?? 'Error',
      message: text(message) ?? '',
      ...(codeText === '' ? {} : { code: codeText }),
    };
  } catch {
    return { name: 'Error', message: '[unreadable]' };
  }
}

/**
 * Marks a BerthError, whichever copy of `@berth/core` made it: an app and a driver that resolved
 * two copies of the package still recognise each other's errors.
 */
const BRAND = Symbol.for('@berth/core.BerthError');

/**
 * The one error class Berth throws. `code` is stable and registered; `message` may change.
 * `detail` says what happened, `fix` what to do, `meta` holds JSON detail (always JSON: the
 * constructor copies it), and `cause` (ES2022) the underlying error when there is one — a
 * backend's own error never reaches the app unwrapped.
 */
export class BerthError<C extends BerthErrorCode = BerthErrorCode> extends Error {
  override readonly name = 'BerthError';
  readonly code: C;
  /** What happened, in one sentence. */
  readonly detail: string;
  /** What to run or change: only commands and options that exist. */
  readonly fix: string;
  readonly meta: BerthErrorMetas[C];

  /** `instanceof BerthError` holds for a BerthError of any copy of the package. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isBranded(value);
  }

  constructor(input: BerthErrorInput<C>) {
    const entry = errorCodeEntry(input.code);
    if (entry === undefined) {
      throw new Error(`BerthError code ${input.code} is not registered (registerErrorCode first)`);
    }
    const message = `${input.code}: ${input.detail}`;
    super(message, input.cause === undefined ? undefined : { cause: input.cause });
    this.code = input.code;
    this.detail = input.detail;
    this.fix = input.fix ?? entry.fix;
    this.meta = toJsonMeta(input.meta) as BerthErrorMetas[C];
  }

  toJSON(): BerthErrorJSON<C> {
    return {
      name: 'BerthError',
      code: this.code,
      message: this.message,
      detail: this.detail,
      fix: this.fix,
      meta: this.meta,
      ...(this.cause === undefined ? {} : { cause: describeCause(this.cause) }),
    };
  }
}

/** True when `error` is a {@link BerthError}; with `code`, one of that code (narrowing `meta`). */
export function isBerthError(error: unknown): error is BerthError;
export function isBerthError<C extends BerthErrorCode>(
  error: unknown,
  code: C,
): error is BerthError<C>;
export function isBerthError(error: unknown, code?: BerthErrorCode): boolean {
  return isBranded(error) && (code === undefined || error.code === code);
}

Object.defineProperty(BerthError.prototype, BRAND, { value: true });

function isBranded(value: unknown): value is BerthError {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[BRAND] === true
  );
}
