import type { Json } from '../../contract/records.js';
import { type BerthError, isBerthError } from '../../errors/berth-error.js';
import { screenJson } from '../../screen/values.js';
import { isRunSuspended, type RunSuspended, type Suspension } from '../steps/index.js';

/** How one attempt's handler ended. */
export type AttemptEnd =
  | { readonly kind: 'completed'; readonly result: Json | undefined }
  | { readonly kind: 'failed'; readonly error: unknown }
  | ({ readonly kind: 'suspended' } & Suspension)
  | { readonly kind: 'lease-lost'; readonly error: BerthError }
  /** The concurrency slot renewal failed: aborted as a lost lease, but the row is still ours. */
  | { readonly kind: 'slot-lost'; readonly error: BerthError }
  | { readonly kind: 'drained'; readonly error: BerthError }
  /** Never started: its concurrency key or rate limit was full (set by admission, not here). */
  | { readonly kind: 'key-busy'; readonly until: number; readonly waitFor?: string }
  /** Not to run: skipped on a busy key, or superseded by a newer job (set by admission). */
  | { readonly kind: 'not-run'; readonly error: NotRunError };

/** Why admission settled a job cancelled without running it. */
export interface NotRunError {
  readonly code: 'JOB_SKIPPED' | 'JOB_SUPERSEDED';
  readonly message: string;
}

/** Where an attempt stands when its handler answers, throws or is cut off. */
export interface AttemptState {
  /** Set once the attempt was aborted (lost lease, timeout, drain, cancel). */
  readonly aborted: boolean;
  readonly reason: unknown;
  /** Set when the abort was a lost lease (`slot`: the concurrency slot was lost). */
  readonly lost: BerthError | undefined;
  readonly slotLost: boolean;
  /** The first suspension a step asked for: it wins over the handler's answer. */
  readonly suspension: RunSuspended | undefined;
}

// Size is the driver's to refuse at the ack; here the answer must be JSON at all.
const resultOf = (value: unknown): Json | undefined =>
  value === undefined ? undefined : screenJson('result', value, Number.POSITIVE_INFINITY).value;

/** The end of an attempt whose handler answered `value` (not aborted before it did). */
export function endOfValue(state: AttemptState, value: unknown): AttemptEnd {
  // A step asked to park the run and the handler swallowed it: the suspension still wins.
  if (state.suspension !== undefined) {
    return { kind: 'suspended', ...state.suspension.toSuspendOptions() };
  }
  try {
    return { kind: 'completed', result: resultOf(value) };
  } catch (error) {
    return endOfError(state, error);
  }
}

/** The end of an attempt whose handler threw `error`, or that an abort cut off (its reason). */
export function endOfError(state: AttemptState, error: unknown): AttemptEnd {
  if (state.lost !== undefined) {
    return { kind: state.slotLost ? 'slot-lost' : 'lease-lost', error: state.lost };
  }
  if (state.aborted && isBerthError(state.reason, 'WORKER_DRAINING')) {
    return { kind: 'drained', error: state.reason };
  }
  if (!state.aborted && state.suspension !== undefined) {
    // Also over an error thrown after a swallowed suspension (or one wrapping it).
    return { kind: 'suspended', ...state.suspension.toSuspendOptions() };
  }
  if (!state.aborted && isRunSuspended(error)) {
    return { kind: 'suspended', ...error.toSuspendOptions() };
  }
  return { kind: 'failed', error: state.aborted ? state.reason : error };
}

/** The outcome an attempt's span ends with. */
export const spanOutcome = (end: AttemptEnd): { state: string; error?: unknown } =>
  end.kind === 'failed' ||
  end.kind === 'lease-lost' ||
  end.kind === 'slot-lost' ||
  end.kind === 'drained'
    ? { state: end.kind, error: end.error }
    : { state: end.kind };
