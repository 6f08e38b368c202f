import { MAX_NAME_LENGTH } from '../contract/limits.js';
import type { Json } from '../contract/records.js';
import { jobInvalid } from '../errors/refusals.js';

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
  if (!isUuid(value))
    throw jobInvalid(field, 'is not a uuid', { value: String(value).slice(0, 80) });
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

/**
 * A JSON value, copied: plain objects, arrays, finite numbers, strings, booleans and null only,
 * no cycles, nothing a backend cannot store. Answers a fresh copy and its UTF-8 JSON size.
 */
export function screenJson(
  field: string,
  value: unknown,
  maxBytes: number,
): { value: Json; bytes: number } {
  const seen = new Set<object>();
  const copy = (item: unknown, path: string): Json => {
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
    if (seen.has(item)) throw jobInvalid(field, `is cyclic at ${path}`, { path });
    seen.add(item);
    let out: Json;
    if (Array.isArray(item)) {
      out = item.map((entry, index) => copy(entry, `${path}[${index}]`));
    } else {
      const proto = Object.getPrototypeOf(item);
      if (proto !== Object.prototype && proto !== null) {
        throw jobInvalid(
          field,
          `holds a ${item.constructor?.name ?? 'non-plain'} object at ${path}, which is not JSON`,
          { path },
        );
      }
      const record: Record<string, Json> = {};
      for (const [key, entry] of Object.entries(item)) {
        if (entry === undefined) continue;
        const bad = unstorable(key);
        if (bad !== undefined) throw jobInvalid(field, `key ${bad} at ${path}`, { path });
        record[key] = copy(entry, `${path}.${key}`);
      }
      out = record;
    }
    seen.delete(item);
    return out;
  };
  const json = copy(value, '$');
  const bytes = Buffer.byteLength(JSON.stringify(json), 'utf8');
  if (bytes > maxBytes) {
    throw jobInvalid(field, `is ${bytes} bytes of JSON, over the driver's limit of ${maxBytes}`, {
      bytes,
      maxBytes,
    });
  }
  return { value: json, bytes };
}

/** Rejects an options object that is not an object. */
export function screenObject(field: string, value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw jobInvalid(field, 'must be an object');
  }
  return value as Record<string, unknown>;
}
