import Table from 'cli-table3';
import pc from 'picocolors';
import type { Colors } from 'picocolors/types.js';
import { safeJson } from './escape.js';

export type { Colors };

/** What the CLI writes to; `process` in the binary. */
export interface Io {
  readonly stdout: NodeJS.WritableStream & { readonly isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream & { readonly isTTY?: boolean };
  readonly stdin: NodeJS.ReadableStream & { readonly isTTY?: boolean };
  readonly env: NodeJS.ProcessEnv;
}

/**
 * Colour only for a terminal: `NO_COLOR` (any non-empty value, no-color.org) turns it off,
 * `FORCE_COLOR` (not "0") turns it on, and a pipe, a file or `TERM=dumb` gets plain text.
 */
export function colorFor(stream: { readonly isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  return stream.isTTY === true && env.TERM !== 'dumb';
}

const BLANK_BORDERS = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: '  ',
};

export type Align = 'left' | 'right';

/** One output of one command: JSON documents or aligned tables, colour decided per stream. */
export interface Output {
  readonly json: boolean;
  /** Colours for stdout (identity functions when stdout gets no colour). */
  readonly color: Colors;
  /** Colours for stderr. */
  readonly errColor: Colors;
  /** The command's one JSON document, on stdout. */
  document(value: unknown): void;
  /** A line of human output on stdout. */
  line(text?: string): void;
  /** A note for the operator on stderr (prompts, hints): never mixed into stdout. */
  note(text: string): void;
  /** An aligned table (bold head, two spaces between columns, no borders) on stdout. */
  table(
    head: readonly string[],
    rows: readonly (readonly string[])[],
    align?: readonly Align[],
  ): void;
  /** Key/value lines, keys padded to one width. */
  fields(rows: readonly (readonly [string, string])[]): void;
}

export function createOutput(io: Io, json: boolean): Output {
  const color = pc.createColors(colorFor(io.stdout, io.env));
  const errColor = pc.createColors(colorFor(io.stderr, io.env));
  const line = (text = '') => io.stdout.write(`${text}\n`);
  return {
    json,
    color,
    errColor,
    document: (value) => io.stdout.write(`${safeJson(value)}\n`),
    line,
    note: (text) => io.stderr.write(`${text}\n`),
    table(head, rows, align = []) {
      const table = new Table({
        head: head.map((title) => color.bold(title)),
        chars: BLANK_BORDERS,
        style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
        colAligns: head.map((_, index) => align[index] ?? 'left'),
      });
      table.push(...rows.map((row) => [...row]));
      for (const text of table.toString().split('\n')) line(text.trimEnd());
    },
    fields(rows) {
      const width = Math.max(0, ...rows.map(([key]) => key.length));
      for (const [key, value] of rows) line(`${color.dim(key.padEnd(width))}  ${value}`);
    },
  };
}
