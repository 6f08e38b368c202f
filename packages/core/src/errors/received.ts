import { types } from 'node:util';

/** A short description of a value the caller sent, made without running any of its code. */
export function describeReceived(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value);
    case 'bigint':
      return `${value}n`;
    case 'number':
    case 'boolean':
    case 'undefined':
      return String(value);
    case 'symbol':
      return 'a symbol';
    case 'function':
      return 'a function';
  }
  if (value === null) return 'null';
  if (types.isProxy(value)) return 'a Proxy';
  return Array.isArray(value) ? 'an array' : 'an object';
}
