import { createHash } from 'node:crypto';

// A fixed namespace, so every process derives the same id for the same name.
const NAMESPACE = Buffer.from('6f1d3c2a9b8e4f7d8a5c0e1b2d3f4a5b', 'hex');

/** A name-based (RFC 9562 version 5) uuid of `name`: the same name, the same id, everywhere. */
export function nameUuid(name: string): string {
  const hash = createHash('sha1').update(NAMESPACE).update(name).digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
