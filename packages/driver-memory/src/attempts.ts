import {
  type AttemptHistory,
  type AttemptOutcome,
  appendAttempt,
  attemptEnding,
  type ByIdOptions,
  type JobError,
  NO_ATTEMPTS,
} from '@berth/core/driver';
import { findRow, type Row, type Store } from './store.js';

/**
 * Records the end of `row`'s running attempt, inside the change that ends it: called with the
 * row still as its claim left it (claimedBy, claim, attempts), before the change clears them.
 */
export function endAttempt(row: Row, outcome: AttemptOutcome, now: number, error?: JobError): void {
  const ending = attemptEnding({
    attempt: row.attempts,
    claim: row.claim,
    workerId: row.claimedBy ?? '',
    claimedAt: row.claimedAt ?? row.updatedAt,
    endedAt: now,
    outcome,
    error,
  });
  row.history = appendAttempt(row.history, ending);
}

/** A copy of the job's history; undefined exactly when `get` would answer undefined. */
export function listAttempts(
  store: Store,
  id: string,
  options: ByIdOptions,
): AttemptHistory | undefined {
  const row = findRow(store, id, options.tenantId);
  if (row === undefined) return undefined;
  return structuredClone(row.history ?? NO_ATTEMPTS);
}
