import type { JobState, LifecycleEvent, LifecycleEventType } from '@berth/core/driver';
import type { StoredJob } from './record.js';

/**
 * What a job record holds of its lifecycle events (`StoredJob.lc`). 2.9 has no write that
 * changes a record and appends to a stream at once, so the conditional write of a transition
 * stores its events here (the tail) and numbers them; the writer publishes them right after,
 * each with the message id `<jobId>:<seq>:<k>` (the stream drops a second copy within its
 * duplicate window). Whoever writes the record next, the repair pass (lifecycle-repair.ts) or a
 * delete publishes a tail that may not have reached the stream (lifecycle-announce.ts).
 */
export interface LifecycleHead {
  /** Events this record (this `seq`: an id enqueued again after a delete starts over) has written. */
  readonly n: number;
  /** The highest `n` its writer knew to be in the stream: a tail at or below it needs no repair. */
  readonly sent: number;
  /** The events of the change that wrote `n` (oldest first): numbers `n - tail.length + 1`..`n`. */
  readonly tail: readonly TailEvent[];
  /** That change's `now` (the driver clock): every event's `at`. */
  readonly at: number;
  /**
   * When its writer sent the write (Date.now(), not the driver clock, which may be a test's):
   * whether a copy published now still falls in the stream's duplicate window of the first.
   */
  readonly wall: number;
  /** The stream's last sequence its writer knew: an event of this tail sits above it. */
  readonly floor: number;
}

/** One event of a tail: its type and attempt. */
export type TailEvent = readonly [type: LifecycleEventType, attempt: number];

/** What a lifecycle message carries: the event without its position, and where it sits per job. */
export interface StoredLifecycleEvent extends Omit<LifecycleEvent, 'position'> {
  /** The record's insertion sequence (which incarnation of the id). */
  readonly s: number;
  /** The event's number among the record's. */
  readonly k: number;
}

/** The incarnation of a record: its insertion sequence (ids may be enqueued again). */
export const incarnation = (job: StoredJob): number => job.seq ?? 0;

/** The message id that makes the stream keep one copy of an event. */
export const messageId = (jobId: string, seq: number, k: number): string => `${jobId}:${seq}:${k}`;

/** The record `after` with the events of its change numbered on from `before`'s. */
export function withTail(
  before: StoredJob,
  after: StoredJob,
  tail: readonly TailEvent[],
  sent: number,
  now: number,
  floor: number,
): StoredJob {
  if (tail.length === 0) return after;
  const n = (before.lc?.n ?? 0) + tail.length;
  return { ...after, lc: { n, sent, tail, at: now, wall: Date.now(), floor } };
}

/** The tail's events as messages, oldest first. */
export function tailEvents(job: StoredJob): StoredLifecycleEvent[] {
  const head = job.lc;
  if (head === undefined) return [];
  const first = head.n - head.tail.length + 1;
  return head.tail.map(([type, attempt], index) => ({
    type,
    jobId: job.id,
    name: job.name,
    queue: job.queue,
    ...(job.tenantId === undefined ? {} : { tenantId: job.tenantId }),
    attempt,
    at: head.at,
    s: incarnation(job),
    k: first + index,
  }));
}

/** Whether the record's tail may still be missing from the stream, as far as it says itself. */
export const mayBeUnsent = (job: StoredJob | undefined): boolean =>
  job?.lc !== undefined && job.lc.sent < job.lc.n;

/** The event a settle writes for the state it left the job in (none for a lease extension). */
export function settledEvent(job: StoredJob): TailEvent {
  const type: LifecycleEventType = settledTypes[job.state] ?? 'retried';
  return [type, job.attempts];
}

const settledTypes: Partial<Record<JobState, LifecycleEventType>> = {
  completed: 'completed',
  cancelled: 'cancelled',
  dead: 'dead',
  failed: 'failed',
  suspended: 'suspended',
};
