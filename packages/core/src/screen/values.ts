import { types } from 'node:util';
import { MAX_NAME_LENGTH, MAX_PAYLOAD_DEPTH } from '../contract/limits.js';
import type { Json } from '../contract/records.js';
import { isBerthError } from '../errors/berth-error.js';
import { describeReceived } from '../errors/received.js';
import { jobInvalid } from '../errors/refusals.js';

export { describeReceived };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The form every driver answers; an id already in it is kept, not copied lower-cased. */
const LOWER_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The latest instant the contract accepts (the ECMAScript Date range). */
const MAX_INSTANT = 8.64e15;

export const isUuid = (value: unknown): value is string =>
  typeof value === 'string' && UUID.test(value);

/** NUL and lone surrogates: what Postgres text/jsonb and other backends refuse to store. */
function unstorable(text: string): string | undefined {
  if (text.includes('\u0000')) return 'contains a NUL character';
  if (!text.isWellFormed()) return 'contains a lone surrogate';
  return undefined;
}

/** A uuid, lower-cased so every driver stores and answers it alike. */
export function screenUuid(field: string, value: unknown): string {
  if (typeof value === 'string' && LOWER_UUID.test(value)) return value;
  if (!isUuid(value)) {
    const received = typeof value === 'string' ? value.slice(0, 80) : describeReceived(value);
    throw jobInvalid(field, 'is not a uuid', { value: received });
  }
  return value.toLowerCase();
}

/** A non-empty name-like string of at most MAX_NAME_LENGTH characters. */
export function screenName(field: string, value: unknown): string {
  if (typeof value !== 'string') throw jobInvalid(field, 'must be a string');
  if (value.length === 0) throw jobInvalid(field, 'must not be empty');
  if (value.length > MAX_NAME_LENGTH)
    throw jobInvalid(field, `is longer than ${MAX_NAME_LENGTH} characters`);
  const bad = unstorable(value);
  if (bad !== undefined) throw jobInvalid(field, bad);
  return value;
}

export function screenOptionalName(field: string, value: unknown): string | undefined {
  return value === undefined ? undefined : screenName(field, value);
}

/** The `tenantId` of a by-id or by-name call's options (an object, or left out). */
export function screenTenantOption(options: unknown): string | undefined {
  return screenOptionalName('tenantId', screenObject('options', options ?? {}).tenantId);
}

/** An integer in `[min, max]`. */
export function screenInteger(field: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw jobInvalid(field, 'must be a finite number');
  if (!Number.isInteger(value)) throw jobInvalid(field, 'must be an integer');
  if (value < min || value > max) throw jobInvalid(field, `must be between ${min} and ${max}`);
  return value;
}

/** An instant in epoch ms; fractions are floored so every backend stores the same integer. */
export function screenInstant(field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw jobInvalid(field, 'must be a finite number');
  if (value < 0 || value > MAX_INSTANT) throw jobInvalid(field, 'is outside the epoch-ms range');
  return Math.floor(value);
}

/** A duration in ms: a positive integer (fractions floored, at least 1). */
export function screenDuration(field: string, value: unknown, max = 365 * 24 * 3_600_000): number {
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw jobInvalid(field, 'must be a finite number');
  if (value <= 0) throw jobInvalid(field, 'must be greater than 0');
  if (value > max) throw jobInvalid(field, `must be at most ${max}`);
  return Math.max(1, Math.floor(value));
}

/**
 * The walk's scratch, kept across calls so a payload costs no closures or path strings: the
 * objects on the path from the root (a cycle meets one of them again; at most
 * MAX_PAYLOAD_DEPTH, and an array, unlike a Set, allocates nothing as it grows and shrinks) and
 * the keys leading to the value being read, turned into a path only for an error. A walk runs no
 * user code (getters and Proxies are refused unrun), so no walk starts inside another; each
 * starts from empty.
 */
const ancestors: object[] = [];
const trail: (string | number)[] = [];
/** An upper bound of the JSON's UTF-8 bytes so far: when it fits, nothing is serialised. */
let boundBytes = 0;

/** The JSONPath-like place of the value being read: `$.a[2].b`. */
function pathOf(): string {
  let path = '$';
  for (const key of trail) path += typeof key === 'number' ? `[${key}]` : `.${key}`;
  return path;
}

/** A string's JSON is at most 6 bytes per UTF-16 unit (`\u001f`) and its two quotes. */
const stringBound = (text: string): number => 6 * text.length + 2;
/** The longest JSON number: `-1.7976931348623157e+308`. */
const NUMBER_BOUND = 24;

function copyJson(field: string, item: unknown, depth: number): Json {
  if (item === null || typeof item === 'boolean') {
    boundBytes += 5;
    return item;
  }
  if (typeof item === 'string') {
    const bad = unstorable(item);
    if (bad !== undefined) {
      const path = pathOf();
      throw jobInvalid(field, `${bad} at ${path}`, { path });
    }
    boundBytes += stringBound(item);
    return item;
  }
  if (typeof item === 'number') {
    if (!Number.isFinite(item)) {
      const path = pathOf();
      throw jobInvalid(field, `holds a non-finite number at ${path}`, { path });
    }
    boundBytes += NUMBER_BOUND;
    return Object.is(item, -0) ? 0 : item;
  }
  if (typeof item !== 'object') {
    const path = pathOf();
    throw jobInvalid(field, `holds a ${typeof item} at ${path}, which is not JSON`, { path });
  }
  if (types.isProxy(item)) {
    const path = pathOf();
    throw jobInvalid(field, `holds a Proxy at ${path}`, { path });
  }
  if (ancestors.includes(item)) {
    const path = pathOf();
    throw jobInvalid(field, `is cyclic at ${path}`, { path });
  }
  if (depth >= MAX_PAYLOAD_DEPTH) {
    const path = pathOf();
    throw jobInvalid(
      field,
      `is nested deeper than ${MAX_PAYLOAD_DEPTH} arrays and objects (MAX_PAYLOAD_DEPTH) at ${path}`,
      { path },
    );
  }
  ancestors.push(item);
  const out = Array.isArray(item) ? copyArray(field, item, depth) : copyObject(field, item, depth);
  ancestors.pop();
  return out;
}

function copyArray(field: string, item: readonly unknown[], depth: number): Json[] {
  const out: Json[] = [];
  boundBytes += 2 + item.length;
  for (let index = 0; index < item.length; index += 1) {
    trail.push(index);
    // A descriptor, so a getter is refused without being run.
    const descriptor = Object.getOwnPropertyDescriptor(item, index);
    if (descriptor === undefined) {
      const path = pathOf();
      throw jobInvalid(field, `has a hole at ${path}`, { path });
    }
    if (!('value' in descriptor)) {
      const path = pathOf();
      throw jobInvalid(field, `holds a getter at ${path}, which is not JSON`, { path });
    }
    out.push(copyJson(field, descriptor.value, depth + 1));
    trail.pop();
  }
  return out;
}

function copyObject(field: string, item: object, depth: number): Record<string, Json> {
  const proto = Object.getPrototypeOf(item);
  if (proto !== Object.prototype && proto !== null) {
    // The path first: reading `constructor` may run a getter.
    const path = pathOf();
    const kind =
      typeof proto?.constructor?.name === 'string' ? proto.constructor.name : 'non-plain';
    throw jobInvalid(field, `holds a ${kind} object at ${path}, which is not JSON`, { path });
  }
  const out: Record<string, Json> = {};
  boundBytes += 2;
  // Own enumerable keys in Object.keys order (the prototype is Object's or none), with no array.
  for (const key in item) {
    if (!Object.hasOwn(item, key)) continue;
    trail.push(key);
    const descriptor = Object.getOwnPropertyDescriptor(item, key);
    if (descriptor !== undefined && !('value' in descriptor)) {
      const path = pathOf();
      throw jobInvalid(field, `holds a getter at ${path}, which is not JSON`, { path });
    }
    trail.pop();
    if (descriptor === undefined || descriptor.value === undefined) continue;
    const bad = unstorable(key);
    if (bad !== undefined) {
      const path = pathOf();
      throw jobInvalid(field, `key ${bad} at ${path}`, { path });
    }
    boundBytes += stringBound(key) + 2;
    trail.push(key);
    const value = copyJson(field, descriptor.value, depth + 1);
    trail.pop();
    // Assigning "__proto__" would set the copy's prototype: define it, as data.
    if (key === '__proto__') {
      Object.defineProperty(out, key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else out[key] = value;
  }
  return out;
}

/**
 * A JSON value, copied: plain objects, arrays, finite numbers, strings, booleans and null only,
 * no cycles, no holes, getters or Proxies, at most MAX_PAYLOAD_DEPTH arrays and objects deep,
 * nothing a backend cannot store, at most `maxBytes` of UTF-8 JSON. Getters are refused, never
 * run. An own `"__proto__"` key is kept as data (defined, not assigned, so it does not set the
 * copy's prototype). Answers a fresh copy; it is serialised to be measured only when a bound
 * counted on the walk does not already show it fits.
 */
export function screenJson(field: string, value: unknown, maxBytes: number): { value: Json } {
  ancestors.length = 0;
  trail.length = 0;
  boundBytes = 0;
  const json = copyJson(field, value, 0);
  if (boundBytes <= maxBytes) return { value: json };
  const bytes = Buffer.byteLength(JSON.stringify(json), 'utf8');
  if (bytes > maxBytes) {
    throw jobInvalid(field, `is ${bytes} bytes of JSON, over the driver's limit of ${maxBytes}`, {
      bytes,
      maxBytes,
    });
  }
  return { value: json };
}

/**
 * An array's entries, copied: a hole, a getter or a Proxy is JOB_INVALID naming `field`, so no
 * backend ever sees `undefined` where the caller left a gap. `max` bounds the length first.
 */
export function screenArray(field: string, value: unknown, max?: number): unknown[] {
  if (!Array.isArray(value) || types.isProxy(value)) throw jobInvalid(field, 'must be an array');
  if (max !== undefined && value.length > max) {
    throw jobInvalid(field, `holds ${value.length} entries, over ${max}`);
  }
  const out: unknown[] = [];
  for (let index = 0; index < value.length; index += 1) {
    const descriptor = Object.getOwnPropertyDescriptor(value, index);
    if (descriptor === undefined) throw jobInvalid(field, `has a hole at index ${index}`);
    if (!('value' in descriptor)) throw jobInvalid(field, `has a getter at index ${index}`);
    out.push(descriptor.value);
  }
  return out;
}

/** What a screen raises when reading its input threw something other than a BerthError. */
export function readFailure(field: string, error: unknown): unknown {
  if (isBerthError(error)) return error;
  return jobInvalid(field, 'could not be read: reading it threw');
}

/**
 * Runs a screen so that only BerthErrors leave it: input that throws while being read (a
 * Proxy's trap, an exotic object) is JOB_INVALID naming `field`, never a raw TypeError and never
 * DRIVER_UNAVAILABLE, which would tell the app to look at its backend. One or two arguments,
 * passed as they are: no rest array on every call of a hot screen.
 */
export function screening<A, R>(field: string, screen: (a: A) => R): (a: A) => R;
export function screening<A, B, R>(field: string, screen: (a: A, b: B) => R): (a: A, b: B) => R;
export function screening<A, B, C, D, R>(
  field: string,
  screen: (a: A, b: B, c: C, d: D) => R,
): (a: A, b: B, c: C, d: D) => R;
export function screening<A, B, C, D, R>(
  field: string,
  screen: (a: A, b: B, c: C, d: D) => R,
): (a: A, b: B, c: C, d: D) => R {
  return (a, b, c, d) => {
    try {
      return screen(a, b, c, d);
    } catch (error) {
      throw readFailure(field, error);
    }
  };
}

/** An object a screen may read: not null, not an array, not a Proxy. */
export const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && !types.isProxy(value);

/** Rejects an options object that is not an object. */
export function screenObject(field: string, value: unknown): Record<string, unknown> {
  if (!isObject(value)) throw jobInvalid(field, 'must be an object');
  return value;
}

/** Text any backend stores: lone surrogates replaced, NUL dropped; the common clean text as is. */
export function storable(text: string): string {
  const formed = text.isWellFormed() ? text : text.toWellFormed();
  return formed.includes('\u0000') ? formed.replaceAll('\u0000', '') : formed;
}
