import {
  BACKFILL_STATUSES,
  type BackfillStatus,
  isJobState,
  type JobState,
  type Json,
  MAX_JOB_PAGE,
  MAX_LIFECYCLE_PAGE,
  MAX_TAIL_POLL_MS,
  MIN_TAIL_POLL_MS,
  parseDuration,
} from '@berth/core';
import { InvalidArgumentError } from 'commander';

/**
 * Parsers for option and argument values. Each throws commander's InvalidArgumentError, so a bad
 * value is a usage error (exit 2) naming the flag, before anything is sent to the queue.
 */

export function stateArg(value: string): JobState {
  if (!isJobState(value)) {
    throw new InvalidArgumentError(
      'not a job state: ready, delayed, running, suspended, completed, failed, dead or cancelled',
    );
  }
  return value;
}

export function backfillStatusArg(value: string): BackfillStatus {
  const status = BACKFILL_STATUSES.find((known) => known === value);
  if (status === undefined) {
    throw new InvalidArgumentError(
      'not a backfill status: running, paused, completed, failed or cancelled',
    );
  }
  return status;
}

export function statesArg(value: string): JobState[] {
  return value.split(',').map((state) => stateArg(state.trim()));
}

export function durationArg(value: string): number {
  const ms = parseDuration(value);
  if (ms === undefined) {
    throw new InvalidArgumentError('not a duration: write a number and a unit, e.g. 10s, 5m, 7d');
  }
  return ms;
}

export function positiveDurationArg(value: string): number {
  const ms = durationArg(value);
  if (ms <= 0) throw new InvalidArgumentError('must be longer than 0, e.g. 2s');
  return ms;
}

export const integerArg =
  (min: number, max: number) =>
  (value: string): number => {
    const number = Number(value);
    if (!/^-?\d+$/.test(value) || number < min || number > max) {
      throw new InvalidArgumentError(`not an integer from ${min} to ${max}`);
    }
    return number;
  };

export const limitArg = integerArg(1, MAX_JOB_PAGE);

export const lifecycleLimitArg = integerArg(1, MAX_LIFECYCLE_PAGE);

/** How often a caught-up `--follow` reads again: what `tailLifecycle`'s `pollMs` takes. */
export function pollIntervalArg(value: string): number {
  const ms = durationArg(value);
  if (!Number.isInteger(ms) || ms < MIN_TAIL_POLL_MS || ms > MAX_TAIL_POLL_MS) {
    throw new InvalidArgumentError('must be from 10ms to 60s, e.g. 500ms');
  }
  return ms;
}

export function jsonArg(value: string): Json {
  try {
    return JSON.parse(value) as Json;
  } catch {
    throw new InvalidArgumentError(
      `not JSON: quote it for the shell, e.g. '{"to":"ada@example.com"}'`,
    );
  }
}

/** `--catch-up`: `none`, or how many of a new schedule's latest past slots to run. */
export function catchUpArg(value: string): 'none' | number {
  if (value === 'none') return value;
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) {
    throw new InvalidArgumentError(
      'not none or a number of past slots, e.g. --catch-up 1 (the latest missed slot)',
    );
  }
  return Number(value);
}
