import type { BerthErrorCode } from './metas.js';

/** What the registry knows of one error code: a title, and the fix used when a throw names none. */
export interface ErrorCodeEntry {
  /** Declared first in `BerthErrorMetas` (declaration merging for a driver's or app's own). */
  readonly code: BerthErrorCode;
  /** One line: what the code means, for docs and tools. */
  readonly title: string;
  /** What to run or change; a throw may give a more specific one. */
  readonly fix: string;
}

const registry = new Map<string, ErrorCodeEntry>();

/**
 * Registers a code once for the whole process. A second registration of the same code throws,
 * so two packages can never give one code two meanings.
 */
export function registerErrorCode(entry: ErrorCodeEntry): void {
  if (!/^[A-Z][A-Z0-9_]*$/.test(entry.code)) {
    throw new TypeError(`error code ${JSON.stringify(entry.code)} is not UPPER_SNAKE_CASE`);
  }
  if (registry.has(entry.code)) {
    throw new Error(
      `error code ${entry.code} is already registered ("${registry.get(entry.code)?.title}"); ` +
        'each code has one meaning — pick a new code for the new meaning',
    );
  }
  registry.set(entry.code, Object.freeze({ ...entry }));
}

/** The entry for a registered code, or `undefined`. */
export function errorCodeEntry(code: string): ErrorCodeEntry | undefined {
  return registry.get(code);
}

/** Every registered code, in registration order. */
export function registeredErrorCodes(): readonly ErrorCodeEntry[] {
  return [...registry.values()];
}
