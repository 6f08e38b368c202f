import {
  type AttemptHistory,
  type AttemptOutcome,
  appendAttempt,
  attemptEnding,
  type ByIdOptions,
  type JobError,
  NO_ATTEMPTS,
} from '@berth/core';
import { findRow, type Row, type Store } from './store.js';

/**
 * Records the end of `row`'s running attempt, inside the change that ends it: called with the
 * row still as its claim left it (claimedBy, claim, attempts), before the change clears them.
 */
export function endAttempt(
  store: Store,
  row: Row,
  outcome: AttemptOutcome,
  now: number,
  error?: JobError,
): void {
  const ending = attemptEnding({
    attempt: row.attempts,
    claim: row.claim,
    workerId: row.claimedBy ?? '',
    claimedAt: row.claimedAt ?? row.updatedAt,
    endedAt: now,
    outcome,
    error,
  });
  store.attempts.set(row.id, appendAttempt(store.attempts.get(row.id), ending));
}

/** A copy of the job's history; undefined exactly when `get` would answer undefined. */
export function listAttempts(
  store: Store,
  id: string,
  options: ByIdOptions,
): AttemptHistory | undefined {
  if (findRow(store, id, options.tenantId) === undefined) return undefined;
  const history = store.attempts.get(id) ?? NO_ATTEMPTS;
  return structuredClone(history);
}
