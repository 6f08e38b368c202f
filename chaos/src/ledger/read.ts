import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LedgerEvent } from './events.ts';

/**
 * Every line of every process's file, in time order. A process killed mid-write may leave a
 * torn last line: it is skipped (the event it would have recorded never finished).
 */
export async function readLedger(dir: string): Promise<LedgerEvent[]> {
  const files = (await readdir(dir)).filter((file) => file.endsWith('.jsonl'));
  const events: LedgerEvent[] = [];
  for (const file of files) {
    const text = await readFile(join(dir, file), 'utf8');
    for (const line of text.split('\n')) {
      if (line === '') continue;
      try {
        events.push(JSON.parse(line) as LedgerEvent);
      } catch {
        // a torn last line of a killed process
      }
    }
  }
  return events.sort((a, b) => a.t - b.t);
}
