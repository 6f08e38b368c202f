import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { finished } from 'node:stream/promises';
import { UsageError } from './errors.js';
import { escapeLine } from './escape.js';

/** One line of an NDJSON input, numbered from 1 as an editor shows it. */
export interface NumberedLine {
  readonly text: string;
  readonly line: number;
}

/**
 * The non-blank lines of `input`, read as they arrive (one line in memory at a time). Each raw
 * line, blank ones too, is handed to `copy` first, so a copy numbers its lines the same.
 */
export async function* linesOf(
  input: NodeJS.ReadableStream,
  copy?: (text: string) => Promise<void>,
): AsyncGenerator<NumberedLine> {
  const reader = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let line = 0;
  for await (const text of reader) {
    line += 1;
    await copy?.(text);
    if (text.trim() !== '') yield { text, line };
  }
}

/** A file named on the command line, refused as a usage error when it cannot be read. */
export async function readableFile(path: string): Promise<string> {
  try {
    const found = await stat(path);
    if (!found.isFile()) throw new Error('not a file');
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new UsageError(
      `--ndjson cannot read ${escapeLine(path)} (${why}): name a file of NDJSON lines, or - for stdin`,
    );
  }
  return path;
}

export const fileLines = (path: string): AsyncGenerator<NumberedLine> =>
  linesOf(createReadStream(path, { encoding: 'utf8' }));

/**
 * A private copy of stdin on disk: stdin can be read once, and every line is checked before any
 * is enqueued, so the second pass reads this copy (memory stays bounded whatever the input size).
 */
export interface Spool {
  readonly path: string;
  write(text: string): Promise<void>;
  close(): Promise<void>;
  remove(): Promise<void>;
}

export async function openSpool(): Promise<Spool> {
  const dir = await mkdtemp(join(tmpdir(), 'berth-ndjson-'));
  const path = join(dir, 'stdin.ndjson');
  const out = createWriteStream(path, { flags: 'wx', mode: 0o600 });
  await once(out, 'open');
  let finishing: Promise<void> | undefined;
  const finish = (): Promise<void> => {
    if (finishing === undefined) {
      out.end();
      finishing = finished(out);
    }
    return finishing;
  };
  return {
    path,
    async write(text) {
      if (!out.write(`${text}\n`)) await once(out, 'drain');
    },
    close: () => finish(),
    async remove() {
      // Ended, not destroyed: a write still in flight must land before the file goes.
      await finish().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
