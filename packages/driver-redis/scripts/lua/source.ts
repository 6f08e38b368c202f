import { LuaSourceError } from './problems.js';

/**
 * Reading the Lua sources. A `.lua` file under `src/lua/` is a header, then one empty line, then
 * its Lua. The header is comment lines: what the file is, a script's KEYS and ARGV, and its
 * `--- @include "name"` lines. It is never sent to Redis.
 *
 * An include file's Lua is a sequence of top-level `local` statements (a function, a constant, a
 * table), each starting at column 0 with its continuation lines indented (but a closing `end` or
 * `}`); a comment at column 0 belongs to the statement below it, and empty lines after a
 * statement to it. Anything else at column 0 is refused, so each statement can be kept or left
 * out on its own.
 */

/** One line of Lua and where it came from (a fill's lines: the line of its placeholder). */
export interface Line {
  readonly text: string;
  readonly file: string;
  readonly line: number;
}

/** An `--- @include "name"` line of a header. */
export interface Include {
  readonly name: string;
  readonly at: Line;
}

/** A parsed `.lua` file. `body` starts with the empty line that ends the header. */
export interface LuaFile {
  readonly path: string;
  readonly header: readonly Line[];
  readonly includes: readonly Include[];
  readonly body: readonly Line[];
}

export const linesOf = (text: string, file: string): Line[] =>
  text.split('\n').map((line, index) => ({ text: line, file, line: index + 1 }));

export const textOf = (lines: readonly Line[]): string => lines.map((line) => line.text).join('\n');

const INCLUDE = /^--- @include "([a-z0-9-]+)"$/;

/** Cuts a file into its header (with its includes) and its Lua. */
export function readLuaFile(path: string, text: string): LuaFile {
  const lines = linesOf(text, path);
  const end = lines.findIndex((line) => line.text === '');
  if (end <= 0)
    throw new LuaSourceError({ file: path, line: 1 }, 'no header comment before an empty line');
  const header = lines.slice(0, end);
  const includes: Include[] = [];
  for (const line of header) {
    if (!line.text.startsWith('--')) {
      throw new LuaSourceError(line, `the header holds a line that is not a comment: ${line.text}`);
    }
    const include = INCLUDE.exec(line.text);
    const name = include?.[1];
    if (name !== undefined) {
      if (includes.some((found) => found.name === name)) {
        throw new LuaSourceError(line, `"${name}" included twice`);
      }
      includes.push({ name, at: line });
    } else if (line.text.startsWith('--- @')) {
      throw new LuaSourceError(line, `not a directive this generator knows: ${line.text}`);
    }
  }
  if (!text.endsWith('\n')) {
    throw new LuaSourceError({ file: path, line: lines.length }, 'no newline at the end');
  }
  return { path, header, includes, body: lines.slice(end) };
}

/** Cuts an include file's Lua into its top-level statements' lines (see the file's comment). */
export function splitStatements(body: readonly Line[]): Line[][] {
  const statements: Line[][] = [];
  let pending: Line[] = [];
  let current: Line[] | undefined;
  const close = () => {
    if (current !== undefined) statements.push(current);
    current = undefined;
  };
  for (const line of body) {
    const { text } = line;
    const top = text.length > 0 && !/^\s/.test(text);
    if (top && text.startsWith('--')) {
      close();
      pending.push(line);
    } else if (top && text.startsWith('local ')) {
      close();
      current = [...pending, line];
      pending = [];
    } else if (current !== undefined && (!top || text === 'end' || text === '}')) {
      current.push(line);
    } else if (text.trim() !== '') {
      throw new LuaSourceError(line, `a top-level line outside any local definition: ${text}`);
    }
  }
  close();
  if (pending.length > 0) {
    throw new LuaSourceError(
      pending[0] ?? { file: '', line: 0 },
      'a comment with no statement below it',
    );
  }
  return statements;
}

/** What a placeholder becomes: text made by TypeScript, or lines of another source. */
export type Fill = string | readonly Line[];

const PLACEHOLDER = /\{\{([A-Za-z0-9_:-]+)\}\}/g;

/**
 * `lines` with each `{{NAME}}` replaced by `fill(NAME)`. A fill of several lines splits the line
 * it stands in; lines made by TypeScript keep the placeholder's line as their origin.
 */
export function expand(lines: readonly Line[], fill: (name: string, at: Line) => Fill): Line[] {
  const out: Line[] = [];
  for (const line of lines) {
    const parts: Line[] = [{ ...line, text: '' }];
    let last = 0;
    for (const match of line.text.matchAll(PLACEHOLDER)) {
      const value = fill(match[1] ?? '', line);
      const filled =
        typeof value === 'string'
          ? linesOf(value, line.file).map((l) => ({ ...l, line: line.line }))
          : value;
      const head = parts.pop() ?? line;
      const [first, ...rest] = filled;
      const prefix = head.text + line.text.slice(last, match.index);
      parts.push({ ...head, text: prefix + (first?.text ?? '') }, ...rest);
      last = match.index + match[0].length;
    }
    const tail = parts.pop() ?? line;
    parts.push({ ...tail, text: tail.text + line.text.slice(last) });
    out.push(...parts);
  }
  return out;
}
