import type { JobRecord, Json } from '../../contract/records.js';
import { TERMINAL_STATES } from '../../contract/states.js';
import type { BerthError } from '../../errors/berth-error.js';
import { jobFailed } from '../client/await-result.js';
import type { ChildOutcome } from './flow-types.js';

/** How a settled child reads to its parent; `undefined` while the child is still live. */
export function outcomeOf(record: JobRecord): ChildOutcome | undefined {
  if (!TERMINAL_STATES.has(record.state)) return undefined;
  const { id, name } = record;
  if (record.state === 'completed')
    return { id, name, state: 'completed', result: record.result ?? null };
  const state = record.state as Exclude<ChildOutcome['state'], 'completed'>;
  return record.lastError === undefined
    ? { id, name, state }
    : { id, name, state, error: record.lastError };
}

/**
 * JOB_FAILED for a child that settled failed, dead or cancelled, as a result wait reports it,
 * marked non-retryable: running the parent again would read the same stored outcome.
 */
export function childFailed(outcome: Exclude<ChildOutcome, { state: 'completed' }>): BerthError {
  const { id, name, error: lastError } = outcome;
  const error = jobFailed(
    lastError === undefined ? { id, name } : { id, name, lastError },
    outcome.state,
  );
  Object.defineProperty(error, 'retryable', { value: false, enumerable: false });
  return error;
}

/** An outcome as its step stores it (JSON). */
export const outcomeJson = (outcome: ChildOutcome): Json => outcome as unknown as Json;
