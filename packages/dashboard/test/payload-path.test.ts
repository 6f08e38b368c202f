import type { Json } from '@berth/core';
import { describe, expect, it } from 'vitest';
import {
  jsonEqual,
  MAX_PATH_DEPTH,
  matchPayload,
  PayloadPathError,
  parsePayloadQuery,
  valueAt,
} from '../src/api/payload-path.js';

const PAYLOAD: Json = {
  user: { id: 42, email: 'ada@example.com', 'display name': 'Ada', tags: ['admin', 'ops'] },
  amount: 19.5,
  note: null,
  items: [
    { sku: 'A-1', qty: 2 },
    { sku: 'B-2', qty: 1 },
  ],
};

const matches = (expression: string, payload: Json = PAYLOAD): boolean =>
  matchPayload(parsePayloadQuery(expression), payload) !== undefined;

function refusal(expression: string): PayloadPathError {
  try {
    parsePayloadQuery(expression);
  } catch (error) {
    if (error instanceof PayloadPathError) return error;
    throw error;
  }
  throw new Error(`${expression} parsed`);
}

describe('parsing a payload path expression', () => {
  it('reads names, array indexes and quoted keys into path steps', () => {
    expect(parsePayloadQuery('$.user["display name"]')).toEqual({
      path: ['user', 'display name'],
    });
    expect(parsePayloadQuery('$.items[1].sku')).toEqual({ path: ['items', 1, 'sku'] });
    expect(parsePayloadQuery('$')).toEqual({ path: [] });
  });

  it('reads an operator and a JSON value, with or without spaces', () => {
    expect(parsePayloadQuery('$.user.id == 42')).toEqual({
      path: ['user', 'id'],
      comparison: { operator: '==', value: 42 },
    });
    expect(parsePayloadQuery('$.user.email!="x"').comparison).toEqual({
      operator: '!=',
      value: 'x',
    });
    expect(parsePayloadQuery('  $.amount >= 10  ').comparison).toEqual({
      operator: '>=',
      value: 10,
    });
    expect(parsePayloadQuery('$.items == [{"sku":"A-1"}]').comparison?.value).toEqual([
      { sku: 'A-1' },
    ]);
  });

  it('refuses a bad expression saying what is wrong and where', () => {
    expect(refusal('user.id == 1')).toMatchObject({ at: 0, message: expect.stringContaining('$') });
    expect(refusal('$.user.').message).toContain('key name');
    expect(refusal('$.user[x]').message).toContain('array index');
    expect(refusal('$.user.id = 42')).toMatchObject({
      at: 10,
      message: expect.stringContaining('found "= 42"'),
    });
    expect(refusal('$.user.email == ada').message).toContain('is not JSON (quote a string');
    expect(refusal('$.user.id ==').message).toContain('needs a JSON value');
    expect(refusal('   ').message).toBe('the expression is empty');
    expect(refusal(`$${'.a'.repeat(MAX_PATH_DEPTH + 1)}`).message).toContain('at most');
  });
});

describe('matching a payload', () => {
  it('== is JSON equality: same type, arrays in order, object keys in any order', () => {
    expect(matches('$.user.id == 42')).toBe(true);
    expect(matches('$.user.id == "42"')).toBe(false);
    expect(matches('$.user.tags == ["admin","ops"]')).toBe(true);
    expect(matches('$.user.tags == ["ops","admin"]')).toBe(false);
    expect(matches('$.items[0] == {"qty":2,"sku":"A-1"}')).toBe(true);
    expect(matches('$.note == null')).toBe(true);
  });

  it('a bare path matches a present value, null included, and not a missing one', () => {
    expect(matches('$.note')).toBe(true);
    expect(matches('$.user.phone')).toBe(false);
    expect(matches('$.items[5]')).toBe(false);
    expect(matches('$.user.id', null)).toBe(false);
    expect(matches('$', null)).toBe(true);
  });

  it('!= matches a present value that differs, never a missing one', () => {
    expect(matches('$.user.id != 7')).toBe(true);
    expect(matches('$.user.id != 42')).toBe(false);
    expect(matches('$.user.phone != 7')).toBe(false);
  });

  it('orders two numbers or two strings, and nothing else', () => {
    expect(matches('$.amount > 19')).toBe(true);
    expect(matches('$.amount < 19.5')).toBe(false);
    expect(matches('$.amount <= 19.5')).toBe(true);
    expect(matches('$.user.email >= "ada"')).toBe(true);
    expect(matches('$.user.id > "1"')).toBe(false);
    expect(matches('$.note < 1')).toBe(false);
  });

  it('answers the value found at the path with a match', () => {
    expect(matchPayload(parsePayloadQuery('$.items[1]'), PAYLOAD)).toEqual({
      value: { sku: 'B-2', qty: 1 },
    });
  });

  it('does not read inherited keys or index objects by number', () => {
    expect(valueAt({ a: {} }, ['a', 'constructor'])).toBeUndefined();
    expect(valueAt({ a: { 0: 'x' } }, ['a', 0])).toBe('x');
    expect(valueAt({ a: ['x'] }, ['a', '0'])).toBeUndefined();
    expect(jsonEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
  });
});
