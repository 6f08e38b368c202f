import { configFixProblem } from '@berth/test-servers';
import { describe, expect, it } from 'vitest';
import { type CursorFilters, createCursorCodec, defaultCursorSecret } from '../src/driver.js';
import { isBerthError } from '../src/index.js';
import { memoryOnManualClock } from './support/memory.js';

const SECRET = 'a deployment secret of some length';
const codec = createCursorCodec(SECRET);
const mine: CursorFilters = { queue: 'mine', state: 'ready' };

const refusal = (
  cursor: unknown,
  filters: CursorFilters = mine,
  direction: 'after' | 'before' = 'after',
  reader = codec,
): string | undefined => {
  try {
    reader.decode(cursor, filters, direction);
    return undefined;
  } catch (error) {
    return isBerthError(error) ? error.code : 'raw';
  }
};

describe('list cursors', () => {
  it('round-trip the position they were made from, under the same filters and direction', () => {
    const position = { createdAt: 1_767_225_600_000, seq: 42 };
    expect(codec.decode(codec.encode(position, mine, 'after'), mine, 'after')).toEqual(position);
    expect(codec.decode(codec.encode(position, {}, 'before'), {}, 'before')).toEqual(position);
  });

  it('are refused as JOB_PAGE_INVALID when forged, truncated or tampered', () => {
    const real = codec.encode({ createdAt: 5, seq: 6 }, mine, 'after');
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

  it('are refused under any other filter, the other direction, or another key', () => {
    const real = codec.encode({ createdAt: 5, seq: 6 }, mine, 'after');
    expect(refusal(real)).toBeUndefined();
    for (const other of [
      {},
      { queue: 'mine' },
      { queue: 'theirs', state: 'ready' as const },
      { ...mine, name: 'email' },
      { ...mine, tenantId: 'acme' },
      { ...mine, state: 'dead' as const },
    ]) {
      expect(refusal(real, other)).toBe('JOB_PAGE_INVALID');
    }
    expect(refusal(real, mine, 'before')).toBe('JOB_PAGE_INVALID');
    expect(refusal(real, mine, 'after', createCursorCodec(`${SECRET}!`))).toBe('JOB_PAGE_INVALID');
    expect(refusal(real, mine, 'after', createCursorCodec(SECRET))).toBeUndefined();
  });

  it('a cursorSecret shorter than 16 characters is CONFIG_INVALID with an actionable fix', () => {
    for (const secret of ['short', '', 42]) {
      let thrown: unknown;
      try {
        createCursorCodec(secret as string);
      } catch (error) {
        thrown = error;
      }
      expect(isBerthError(thrown, 'CONFIG_INVALID')).toBe(true);
      if (isBerthError(thrown, 'CONFIG_INVALID')) {
        expect(thrown.meta.option).toBe('cursorSecret');
        expect(configFixProblem(thrown.meta.option, thrown.fix)).toBeUndefined();
      }
    }
  });

  it('the default key is the same for one namespace and differs between namespaces', () => {
    expect(defaultCursorSecret('pg', 'berth')).toBe(defaultCursorSecret('pg', 'berth'));
    expect(defaultCursorSecret('pg', 'berth')).not.toBe(defaultCursorSecret('pg', 'other'));
    expect(defaultCursorSecret('pg', 'berth').length).toBeGreaterThanOrEqual(16);
  });

  it('a driver refuses a cursor of one filtered list on another list', async () => {
    const { driver } = memoryOnManualClock();
    for (let index = 0; index < 4; index += 1) {
      await driver.enqueue({ name: 'a', queue: index % 2 === 0 ? 'mine' : 'theirs' });
    }
    const page = await driver.list({ queue: 'mine', limit: 1 });
    const next = page.next ?? 'missing';
    expect((await driver.list({ queue: 'mine', limit: 1, after: next })).jobs).toHaveLength(1);
    for (const other of [{}, { queue: 'theirs' }, { queue: 'mine', name: 'a' }]) {
      await expect(driver.list({ ...other, after: next })).rejects.toMatchObject({
        code: 'JOB_PAGE_INVALID',
        meta: { reason: 'cursor' },
      });
    }
    await expect(driver.list({ queue: 'mine', before: next })).rejects.toMatchObject({
      code: 'JOB_PAGE_INVALID',
    });
  });
});
