import type { AttemptRecord } from '@berth/core';
import { formatRelative } from './duration.js';
import { clip, escapeLine } from './escape.js';
import type { Colors } from './output.js';

/** The attempt table of `jobs show`: one row per kept record, oldest first. */
export const ATTEMPT_HEAD = ['#', 'ATTEMPT', 'OUTCOME', 'WORKER', 'CLAIMED', 'TOOK', 'ERROR'];

/** One colour per outcome: red needs a look, green is fine. */
function paintOutcome(outcome: AttemptRecord['outcome'], color: Colors): string {
  switch (outcome) {
    case 'completed':
      return color.green(outcome);
    case 'retried':
      return color.yellow(outcome);
    case 'failed':
    case 'lapsed':
      return color.red(outcome);
    case 'cancelled':
      return color.magenta(outcome);
    case 'suspended':
      return color.blue(outcome);
  }
}

/** A record as a row: every text from the queue escaped for the terminal, the error clipped. */
export function attemptRow(record: AttemptRecord, now: number, color: Colors): string[] {
  const error =
    record.error === undefined
      ? ''
      : color.red(clip(escapeLine(`${record.error.code ?? 'Error'}: ${record.error.message}`), 60));
  return [
    String(record.seq),
    String(record.attempt),
    paintOutcome(record.outcome, color),
    escapeLine(record.workerId),
    formatRelative(record.claimedAt, now),
    `${Math.max(0, record.endedAt - record.claimedAt)}ms`,
    error,
  ];
}

/** The table's title: how many records, and how many the cap dropped. */
export const attemptTitle = (kept: number, dropped: number): string =>
  `attempts (${kept}${dropped > 0 ? `, ${dropped} earlier dropped` : ''}, oldest first)`;
