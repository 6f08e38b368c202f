import { types } from 'node:util';
import { MAX_NAME_LENGTH, MAX_PAYLOAD_DEPTH } from '../contract/limits.js';
import type { Json } from '../contract/records.js';
import { isBerthError } from '../errors/berth-error.js';
import { describeReceived } from '../errors/received.js';
import { jobInvalid } from '../errors/refusals.js';

export { describeReceived };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
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

/** Reads one own property without running a getter; `undefined` when it holds none. */
function ownValue(
  field: string,
  object: object,
  key: string,
  path: string,
): { value: unknown } | undefined {
  const descriptor = Object.getOwnPropertyDescriptor(object, key);
  if (descriptor === undefined) return undefined;
  if (!('value' in descriptor)) {
    throw jobInvalid(field, `holds a getter at ${path}, which is not JSON`, { path });
  }
  return { value: descriptor.value };
}

/**
 * A JSON value, copied: plain objects, arrays, finite numbers, strings, booleans and null only,
 * no cycles, no holes, getters or Proxies, at most MAX_PAYLOAD_DEPTH arrays and objects deep,
 * nothing a backend cannot store. Getters are refused, never run. An own `"__proto__"` key is
 * kept as data (defined, not assigned, so it does not set the copy's prototype). Answers a
 * fresh copy and its UTF-8 JSON size.
 */
export function screenJson(
  field: string,
  value: unknown,
  maxBytes: number,
): { value: Json; bytes: number } {
  const seen = new Set<object>();
  const copy = (item: unknown, path: string, depth: number): Json => {
    if (item === null || typeof item === 'boolean') return item;
    if (typeof item === 'string') {
      const bad = unstorable(item);
      if (bad !== undefined) throw jobInvalid(field, `${bad} at ${path}`, { path });
      return item;
    }
    if (typeof item === 'number') {
      if (!Number.isFinite(item))
        throw jobInvalid(field, `holds a non-finite number at ${path}`, { path });
      return Object.is(item, -0) ? 0 : item;
    }
    if (typeof item !== 'object') {
      throw jobInvalid(field, `holds a ${typeof item} at ${path}, which is not JSON`, { path });
    }
    if (types.isProxy(item)) throw jobInvalid(field, `holds a Proxy at ${path}`, { path });
    if (seen.has(item)) throw jobInvalid(field, `is cyclic at ${path}`, { path });
    if (depth >= MAX_PAYLOAD_DEPTH) {
      throw jobInvalid(
        field,
        `is nested deeper than ${MAX_PAYLOAD_DEPTH} arrays and objects (MAX_PAYLOAD_DEPTH) at ${path}`,
        { path },
      );
    }
    seen.add(item);
    const out = Array.isArray(item) ? copyArray(item, path, depth) : copyObject(item, path, depth);
    seen.delete(item);
    return out;
  };
  const copyArray = (item: readonly unknown[], path: string, depth: number): Json[] => {
    const out: Json[] = [];
    for (let index = 0; index < item.length; index += 1) {
      const at = `${path}[${index}]`;
      const entry = ownValue(field, item, String(index), at);
      if (entry === undefined) throw jobInvalid(field, `has a hole at ${at}`, { path: at });
      out.push(copy(entry.value, at, depth + 1));
    }
    return out;
  };
  const copyObject = (item: object, path: string, depth: number): Record<string, Json> => {
    const proto = Object.getPrototypeOf(item);
    if (proto !== Object.prototype && proto !== null) {
      const kind =
        typeof proto?.constructor?.name === 'string' ? proto.constructor.name : 'non-plain';
      throw jobInvalid(field, `holds a ${kind} object at ${path}, which is not JSON`, { path });
    }
    const out: Record<string, Json> = {};
    for (const key of Object.keys(item)) {
      const at = `${path}.${key}`;
      const entry = ownValue(field, item, key, at);
      if (entry === undefined || entry.value === undefined) continue;
      const bad = unstorable(key);
      if (bad !== undefined) throw jobInvalid(field, `key ${bad} at ${path}`, { path });
      Object.defineProperty(out, key, {
        value: copy(entry.value, at, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  };
  const json = copy(value, '$', 0);
  const bytes = Buffer.byteLength(JSON.stringify(json), 'utf8');
  if (bytes > maxBytes) {
    throw jobInvalid(field, `is ${bytes} bytes of JSON, over the driver's limit of ${maxBytes}`, {
      bytes,
      maxBytes,
    });
  }
  return { value: json, bytes };
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

/**
 * Runs a screen so that only BerthErrors leave it: input that throws while being read (a
 * Proxy's trap, an exotic object) is JOB_INVALID naming `field`, never a raw TypeError and never
 * DRIVER_UNAVAILABLE, which would tell the app to look at its backend.
 */
export function screening<A extends unknown[], R>(
  field: string,
  screen: (...args: A) => R,
): (...args: A) => R {
  return (...args) => {
    try {
      return screen(...args);
    } catch (error) {
      if (isBerthError(error)) throw error;
      throw jobInvalid(field, 'could not be read: reading it threw');
    }
  };
}

/** Rejects an options object that is not an object. */
export function screenObject(field: string, value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || types.isProxy(value)) {
    throw jobInvalid(field, 'must be an object');
  }
  return value as Record<string, unknown>;
}
