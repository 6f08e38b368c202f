import {
  type AttemptHistory,
  type AttemptOutcome,
  type AttemptRecord,
  MAX_ATTEMPT_MESSAGE_BYTES,
  MAX_ATTEMPT_RECORDS,
  MAX_ATTEMPT_STACK_BYTES,
} from './contract/attempts.js';
import type { JobError, NackOptions } from './contract/records.js';

/**
 * Shared rules of the attempt history (contract/attempts.ts), for drivers whose change is built
 * in TypeScript (memory, NATS). Drivers whose change runs on the server (pg, redis) apply the
 * same rules there; the kit checks that they agree.
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The longest prefix of whole characters of `text` within `maxBytes` bytes of UTF-8. */
export function cutUtf8(text: string, maxBytes: number): string {
  // A character is at most 4 bytes: a short text needs no encoding.
  if (text.length * 3 <= maxBytes) return text;
  const bytes = encoder.encode(text);
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  // Back off over continuation bytes (10xxxxxx) to the start of the cut character.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end -= 1;
  return decoder.decode(bytes.subarray(0, end));
}

/** The error an attempt record keeps: message and stack cut to their byte bounds. */
export function attemptError(error: JobError): JobError {
  return {
    ...(error.code === undefined ? {} : { code: error.code }),
    message: cutUtf8(error.message, MAX_ATTEMPT_MESSAGE_BYTES),
    ...(error.stack === undefined ? {} : { stack: cutUtf8(error.stack, MAX_ATTEMPT_STACK_BYTES) }),
  };
}

/** How a landed nack of a row with `attempts`/`maxAttempts` ends the attempt. */
export function nackOutcome(
  row: { readonly attempts: number; readonly maxAttempts: number },
  options: NackOptions,
): AttemptOutcome {
  if (options.cancel === true) return 'cancelled';
  if (options.final !== true && row.attempts < row.maxAttempts) return 'retried';
  return options.error.code === 'LEASE_LAPSED' ? 'lapsed' : 'failed';
}

/** An empty history: a job never settled after a claim. */
export const NO_ATTEMPTS: AttemptHistory = { records: [], dropped: 0 };

/** What an ended attempt's record holds but its `seq`, which {@link appendAttempt} gives it. */
export type AttemptEnding = Omit<AttemptRecord, 'seq'>;

/**
 * `history` with `ending` appended as the next record and the cap applied: the first record and
 * the latest MAX_ATTEMPT_RECORDS - 1 are kept. A new history; `history` is not changed.
 */
export function appendAttempt(
  history: AttemptHistory | undefined,
  ending: AttemptEnding,
): AttemptHistory {
  const records = history?.records;
  // Most jobs end one attempt: their history is made with no copy of an empty one.
  if (records === undefined || records.length === 0) {
    return { records: [{ seq: 1, ...ending }], dropped: history?.dropped ?? 0 };
  }
  const seq = (records.at(-1)?.seq ?? 0) + 1;
  const next: AttemptRecord[] = [...records, { seq, ...ending }];
  let dropped = history?.dropped ?? 0;
  if (next.length > MAX_ATTEMPT_RECORDS) {
    next.splice(1, next.length - MAX_ATTEMPT_RECORDS);
    dropped = seq - next.length;
  }
  return { records: next, dropped };
}

/** A record built in the contract's field order, `error` absent when there is none. */
export function attemptEnding(fields: {
  attempt: number;
  claim: number;
  workerId: string;
  claimedAt: number;
  endedAt: number;
  outcome: AttemptOutcome;
  error?: JobError | undefined;
}): AttemptEnding {
  const { error, ...rest } = fields;
  return error === undefined ? rest : { ...rest, error: attemptError(error) };
}
