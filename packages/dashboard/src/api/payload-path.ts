/**
 * The payload search's small path language, parsed once per request and run against each
 * payload read:
 *
 *   expression := path [ operator value ]
 *   path       := '$' ( '.' name | '[' index ']' | '[' "json string" ']' )*
 *   operator   := '==' | '!=' | '<' | '<=' | '>' | '>='
 *   value      := any JSON value: 42, "ada", true, null, [1,2], {"a":1}
 *
 * `name` is letters, digits, `_` and `$`, not starting with a digit; any other key is written
 * `["a key"]`. A bare path matches when the payload has a value there (null included). `==` is
 * JSON equality (object keys in any order; 42 is not "42"); `!=` matches a present value that
 * is not equal (a missing one does not match); `<` `<=` `>` `>=` compare two numbers or two
 * strings and match nothing else.
 */

import type { Json } from '@berth/core';

export type PathSegment = string | number;
export type Operator = '==' | '!=' | '<' | '<=' | '>' | '>=';

export interface PayloadQuery {
  readonly path: readonly PathSegment[];
  readonly comparison?: { readonly operator: Operator; readonly value: Json };
}

/** Longest expression accepted: a search is typed, not generated. */
export const MAX_EXPRESSION_LENGTH = 1_000;
/** Deepest path accepted. */
export const MAX_PATH_DEPTH = 32;

/** A bad expression: `message` says what and where (`at` is the 0-based character offset). */
export class PayloadPathError extends Error {
  constructor(
    message: string,
    readonly at: number,
  ) {
    super(message);
  }
}

const NAME = /[A-Za-z_$][A-Za-z0-9_$]*/y;
const INDEX = /\[(\d{1,9})\]/y;
const QUOTED = /\["(?:[^"\\]|\\.)*"\]/y;
const OPERATOR = /\s*(==|!=|<=|>=|<|>)\s*/y;

function sticky(pattern: RegExp, text: string, at: number): RegExpExecArray | null {
  pattern.lastIndex = at;
  return pattern.exec(text);
}

function parsePath(text: string): { path: PathSegment[]; end: number } {
  if (text[0] !== '$') throw new PayloadPathError('a path starts with $, e.g. $.user.id', 0);
  const path: PathSegment[] = [];
  let at = 1;
  while (at < text.length) {
    const char = text[at];
    if (char === '.') {
      const name = sticky(NAME, text, at + 1);
      if (name === null) {
        throw new PayloadPathError(
          `after "." comes a key name (letters, digits, _ or $); write any other key as ["key"]`,
          at + 1,
        );
      }
      path.push(name[0]);
      at += 1 + name[0].length;
    } else if (char === '[') {
      const index = sticky(INDEX, text, at);
      const quoted = index === null ? sticky(QUOTED, text, at) : null;
      if (index?.[1] !== undefined) {
        path.push(Number(index[1]));
        at += index[0].length;
      } else if (quoted !== null) {
        path.push(JSON.parse(quoted[0].slice(1, -1)) as string);
        at += quoted[0].length;
      } else {
        throw new PayloadPathError('[ takes an array index ([0]) or a quoted key (["a key"])', at);
      }
    } else {
      break;
    }
    if (path.length > MAX_PATH_DEPTH) {
      throw new PayloadPathError(`a path has at most ${MAX_PATH_DEPTH} steps`, at);
    }
  }
  return { path, end: at };
}

/** Parses an expression; PayloadPathError says what is wrong and where. */
export function parsePayloadQuery(expression: string): PayloadQuery {
  const text = expression.trim();
  if (text === '') throw new PayloadPathError('the expression is empty', 0);
  if (text.length > MAX_EXPRESSION_LENGTH) {
    throw new PayloadPathError(
      `the expression is over ${MAX_EXPRESSION_LENGTH} characters`,
      MAX_EXPRESSION_LENGTH,
    );
  }
  const { path, end } = parsePath(text);
  if (end === text.length) return { path };
  const operator = sticky(OPERATOR, text, end);
  if (operator?.[1] === undefined) {
    const found = text.slice(end).trimStart();
    throw new PayloadPathError(
      `expected an operator (== != < <= > >=) after the path, found ${JSON.stringify(found.slice(0, 20))}`,
      text.length - found.length,
    );
  }
  const valueAt = end + operator[0].length;
  const valueText = text.slice(valueAt);
  if (valueText === '') throw new PayloadPathError(`${operator[1]} needs a JSON value`, valueAt);
  let value: Json;
  try {
    value = JSON.parse(valueText) as Json;
  } catch {
    throw new PayloadPathError(
      `the value ${JSON.stringify(valueText.slice(0, 40))} is not JSON (quote a string: "ada")`,
      valueAt,
    );
  }
  return { path, comparison: { operator: operator[1] as Operator, value } };
}

const hasOwn = (value: object, key: string): boolean => Object.hasOwn(value, key);

/** The value at `path`, or undefined when the payload has none there. */
export function valueAt(payload: Json, path: readonly PathSegment[]): Json | undefined {
  let current: Json | undefined = payload;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    if (Array.isArray(current)) {
      if (typeof segment !== 'number') return undefined;
      current = (current as readonly Json[])[segment];
    } else {
      const key = String(segment);
      const record = current as { readonly [key: string]: Json };
      current = hasOwn(record, key) ? record[key] : undefined;
    }
  }
  return current;
}

/** JSON equality: same type and value; arrays in order; objects by keys in any order. */
export function jsonEqual(left: Json, right: Json): boolean {
  if (left === right) return true;
  if (left === null || right === null || typeof left !== 'object' || typeof right !== 'object') {
    return false;
  }
  if (Array.isArray(left) || Array.isArray(right)) {
    if (!Array.isArray(left) || !Array.isArray(right) || left.length !== right.length) return false;
    return left.every((item: Json, index: number) => jsonEqual(item, right[index] as Json));
  }
  const leftRecord = left as { readonly [key: string]: Json };
  const rightRecord = right as { readonly [key: string]: Json };
  const keys = Object.keys(leftRecord);
  if (keys.length !== Object.keys(rightRecord).length) return false;
  return keys.every(
    (key) =>
      hasOwn(rightRecord, key) && jsonEqual(leftRecord[key] as Json, rightRecord[key] as Json),
  );
}

function ordered(operator: Operator, left: number | string, right: number | string): boolean {
  switch (operator) {
    case '<':
      return left < right;
    case '<=':
      return left <= right;
    case '>':
      return left > right;
    default:
      return left >= right;
  }
}

/** Whether `payload` matches; the value at the path with it (undefined: no match). */
export function matchPayload(query: PayloadQuery, payload: Json): { value: Json } | undefined {
  const found = valueAt(payload, query.path);
  if (found === undefined) return undefined;
  const { comparison } = query;
  if (comparison === undefined) return { value: found };
  const { operator, value } = comparison;
  if (operator === '==') return jsonEqual(found, value) ? { value: found } : undefined;
  if (operator === '!=') return jsonEqual(found, value) ? undefined : { value: found };
  const comparable =
    (typeof found === 'number' && typeof value === 'number') ||
    (typeof found === 'string' && typeof value === 'string');
  return comparable && ordered(operator, found, value) ? { value: found } : undefined;
}
