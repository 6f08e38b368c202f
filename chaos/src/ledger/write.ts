import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { LedgerEvent } from './events.ts';

type Unstamped<E> = E extends LedgerEvent ? Omit<E, 't' | 'pid'> : never;

export interface LedgerWriter {
  append(event: Unstamped<LedgerEvent>, t: number): void;
  close(): void;
}

/**
 * The process's own append-only file `<dir>/<pid>.jsonl`. Each line is one `write(2)`: once it
 * returns the line is in the kernel, so a SIGKILL of the process loses none of it.
 */
export function openLedger(dir: string, pid = process.pid): LedgerWriter {
  const fd = openSync(join(dir, `${pid}.jsonl`), 'a');
  return {
    append(event, t) {
      writeSync(fd, `${JSON.stringify({ ...event, t, pid })}\n`);
    },
    close() {
      closeSync(fd);
    },
  };
}

/** For the enqueuing process, which runs no handler. */
export const noLedger: LedgerWriter = { append() {}, close() {} };
