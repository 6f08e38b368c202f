import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, isBerthError } from '../src/index.js';

const refusal = (cursor: unknown): string | undefined => {
  try {
    decodeCursor(cursor);
    return undefined;
  } catch (error) {
    return isBerthError(error) ? error.code : 'raw';
  }
};

describe('list cursors', () => {
  it('round-trip the position they were made from', () => {
    const position = { createdAt: 1_767_225_600_000, seq: 42 };
    expect(decodeCursor(encodeCursor(position))).toEqual(position);
  });

  it('are refused as JOB_PAGE_INVALID when forged, truncated or tampered', () => {
    const real = encodeCursor({ createdAt: 5, seq: 6 });
    const flipped = `${real.slice(0, -1)}${real.endsWith('A') ? 'B' : 'A'}`;
    const body = Buffer.from('5:7').toString('base64url');
    const [prefix, , tag] = real.split('.');
    for (const forged of [
      'nonsense',
      '',
      flipped,
      real.slice(0, -3),
      `${prefix}.${body}.${tag}`,
      `${real}.extra`,
      `${real}x`,
      `${real}A`,
      42,
    ]) {
      expect(refusal(forged)).toBe('JOB_PAGE_INVALID');
    }
  });
});
