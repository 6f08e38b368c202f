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

/**
 * One registry per process, shared by every copy of `@berth/core` loaded in it (an app whose
 * driver resolved a core of its own): a code a driver registered is known to the app's core.
 */
const REGISTRY = Symbol.for('@berth/core.errorCodes');
function sharedRegistry(): Map<string, ErrorCodeEntry> {
  const shared = globalThis as Record<symbol, Map<string, ErrorCodeEntry> | undefined>;
  const found = shared[REGISTRY];
  if (found !== undefined) return found;
  const made = new Map<string, ErrorCodeEntry>();
  shared[REGISTRY] = made;
  return made;
}

const registry = sharedRegistry();

/**
 * Registers a code once for the whole process. The same entry again (a second copy of the
 * package that registered it) is a no-op; the same code with another title or fix throws, so
 * two packages can never give one code two meanings.
 */
export function registerErrorCode(entry: ErrorCodeEntry): void {
  if (!/^[A-Z][A-Z0-9_]*$/.test(entry.code)) {
    throw new TypeError(`error code ${JSON.stringify(entry.code)} is not UPPER_SNAKE_CASE`);
  }
  const known = registry.get(entry.code);
  if (known !== undefined) {
    if (known.title === entry.title && known.fix === entry.fix) return;
    throw new Error(
      `error code ${entry.code} is already registered ("${known.title}"); ` +
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
