import type { MetaJson } from './metas.js';

/** Nesting kept in an error's meta; deeper values become a marker. */
const MAX_META_DEPTH = 8;

const deepFreeze = <T>(value: T): T => {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const entry of Object.values(value)) deepFreeze(entry);
  }
  return value;
};

/** An error as meta shows it: strings only, read without running the error's own code. */
function errorShape(error: Error): MetaJson {
  const name = Object.getOwnPropertyDescriptor(error, 'name')?.value ?? error.constructor?.name;
  const message = Object.getOwnPropertyDescriptor(error, 'message')?.value;
  return {
    name: typeof name === 'string' ? name : 'Error',
    message: typeof message === 'string' ? message : '',
  };
}

/**
 * Copies `meta` into plain JSON, so an error always serialises: bigint becomes its decimal
 * string, functions, symbols and undefined are dropped (null inside arrays), a cycle becomes
 * "[cyclic]", a getter becomes "[getter]" and is never invoked, past MAX_META_DEPTH a value
 * becomes "[too deep]". The copy is deep-frozen.
 */
export function toJsonMeta(meta: unknown): { readonly [key: string]: MetaJson } {
  const seen = new Set<object>();
  const copy = (value: unknown, depth: number): MetaJson | undefined => {
    switch (typeof value) {
      case 'string':
      case 'boolean':
        return value;
      case 'number':
        return Number.isFinite(value) ? value : String(value);
      case 'bigint':
        return value.toString();
      case 'undefined':
      case 'function':
      case 'symbol':
        return undefined;
    }
    if (value === null) return null;
    const object = value as object;
    if (seen.has(object)) return '[cyclic]';
    if (depth >= MAX_META_DEPTH) return '[too deep]';
    seen.add(object);
    try {
      if (object instanceof Date) {
        return Number.isNaN(object.getTime()) ? 'Invalid Date' : object.toISOString();
      }
      if (object instanceof Error) return errorShape(object);
      if (Array.isArray(object)) {
        const out: MetaJson[] = [];
        for (let index = 0; index < object.length; index += 1) {
          out.push(read(object, String(index), depth) ?? null);
        }
        return out;
      }
      const out: Record<string, MetaJson> = {};
      for (const key of Object.keys(object)) {
        const entry = read(object, key, depth);
        if (entry !== undefined) out[key] = entry;
      }
      return out;
    } catch {
      // A proxy or exotic object that refuses to be read.
      return '[unreadable]';
    } finally {
      seen.delete(object);
    }
  };
  const read = (object: object, key: string, depth: number): MetaJson | undefined => {
    const descriptor = Object.getOwnPropertyDescriptor(object, key);
    if (descriptor === undefined) return undefined;
    if (!('value' in descriptor)) return descriptor.get === undefined ? undefined : '[getter]';
    return copy(descriptor.value, depth + 1);
  };
  const root = meta === undefined || meta === null ? {} : copy(meta, 0);
  const record =
    root !== null && typeof root === 'object' && !Array.isArray(root)
      ? root
      : root === undefined
        ? {}
        : { value: root };
  return deepFreeze(record as { readonly [key: string]: MetaJson });
}
