import type { JobState } from '@berth/core';
import type { BackfillOp } from './backfills.js';
import type { LogOp } from './logs.js';
import type { PauseOp } from './pause-ops.js';
import type { ScheduleOp } from './schedules.js';

/**
 * The operations a differential sequence is made of. Instants are offsets from the moment the op
 * runs; jobs and fences are picked by index among those the sequence has seen (modulo their
 * number), so the same op means the same thing on both drivers. An optional field left
 * `undefined` is not sent.
 */

/** Caller-allocated ids (an outbox publishing a row twice). */
export const CALLER_IDS = [
  'c0ffee00-0000-4000-8000-000000000001',
  'c0ffee00-0000-4000-8000-000000000002',
  'c0ffee00-0000-4000-8000-000000000003',
] as const;

/** An id no sequence enqueues. */
export const UNKNOWN_ID = 'deadbeef-0000-4000-8000-000000000000';

export interface EnqueueSpec {
  readonly name: string;
  /** The payload is `{ n }`. */
  readonly n: number;
  readonly queue?: string | undefined;
  readonly key?: string | undefined;
  readonly tenant?: string | undefined;
  readonly priority?: number | undefined;
  /** runAt = now + delayMs. */
  readonly delayMs?: number | undefined;
  /** Index into CALLER_IDS. */
  readonly callerId?: number | undefined;
  readonly maxAttempts?: number | undefined;
  readonly onConflict?: 'dedupe' | 'error' | undefined;
  /**
   * Index into CALLER_IDS: the request's parentId. Only with `callerId`: a child's settle
   * announcement carries the child's id in its payload, which is app content compared as given,
   * so the child's id must be the same on both drivers.
   */
  readonly parent?: number | undefined;
}

/**
 * A known job by index, a job some answer showed settled (by index among those), or an id
 * nobody queued.
 */
export type Target = number | { readonly settled: number } | 'unknown';

interface ById<K extends string> {
  readonly kind: K;
  readonly target: Target;
  readonly tenant?: string | undefined;
}

interface Fenced<K extends string> {
  readonly kind: K;
  /** Index among every fence the sequence's claims handed out, stale ones included. */
  readonly fence: number;
}

interface LeaseCall<K extends string> {
  readonly kind: K;
  readonly name: string;
  readonly holder: string;
  readonly ttlMs: number;
}

interface SlotCall<K extends string> {
  readonly kind: K;
  readonly key: string;
  readonly holder: string;
  readonly ttlMs: number;
}

export type Op =
  | { readonly kind: 'enqueue'; readonly request: EnqueueSpec }
  | { readonly kind: 'enqueueMany'; readonly requests: readonly EnqueueSpec[] }
  | {
      readonly kind: 'claim';
      readonly queues: readonly string[];
      readonly limit: number;
      readonly worker: string;
      readonly vtMs: number;
      readonly drop?: readonly string[] | undefined;
      /** The claim's job-name filter. */
      readonly names?: readonly string[] | undefined;
    }
  | (Fenced<'ack'> & { readonly result?: number | undefined })
  | (Fenced<'nack'> & {
      readonly retryInMs?: number | undefined;
      readonly final?: boolean | undefined;
      readonly deadLetter?: boolean | undefined;
      readonly cancel?: boolean | undefined;
    })
  | (Fenced<'suspend'> & { readonly untilInMs: number; readonly waitFor?: string | undefined })
  | (Fenced<'extend'> & { readonly vtMs: number })
  | (Fenced<'progress'> & { readonly done: number })
  | (Fenced<'stepPut'> & { readonly name: string; readonly status: 'completed' | 'failed' })
  /** The steps of the run the fence was handed out for. */
  | Fenced<'stepList'>
  | { readonly kind: 'ackMany'; readonly fences: readonly number[] }
  | { readonly kind: 'nackMany'; readonly fences: readonly number[] }
  | { readonly kind: 'extendMany'; readonly fences: readonly number[]; readonly vtMs: number }
  | ById<'get'>
  /** The job's attempt history (`driver.attempts.list`). */
  | ById<'attempts'>
  | ById<'cancel'>
  | ById<'promote'>
  | ById<'delete'>
  | (ById<'requeue'> & { readonly fromStep?: string | undefined })
  | {
      readonly kind: 'list';
      readonly limit: number;
      readonly state?: JobState | undefined;
      readonly queue?: string | undefined;
      readonly name?: string | undefined;
      readonly tenant?: string | undefined;
      /** Walk from this side's previous page's cursor (a plain list when it has none). */
      readonly follow?: 'next' | 'prev' | undefined;
    }
  | { readonly kind: 'stats' }
  | {
      readonly kind: 'purge';
      readonly states: readonly JobState[];
      readonly olderThanInMs: number;
      /** Purge among these jobs only (`purge({ ids })`). */
      readonly targets?: readonly Target[] | undefined;
    }
  | {
      readonly kind: 'publish';
      readonly name: string;
      readonly n: number;
      readonly ttlMs?: number | undefined;
    }
  | {
      readonly kind: 'find';
      readonly name: string;
      readonly afterInMs: number;
      /** Match `{ n }`. */
      readonly match?: number | undefined;
    }
  | { readonly kind: 'eventsList'; readonly name?: string | undefined }
  | { readonly kind: 'purgeEvents' }
  | LeaseCall<'acquire'>
  | LeaseCall<'renew'>
  | { readonly kind: 'release'; readonly name: string; readonly holder: string }
  | { readonly kind: 'holder'; readonly name: string }
  | (SlotCall<'acquireSlot'> & { readonly limit: number })
  | SlotCall<'renewSlot'>
  | { readonly kind: 'releaseSlot'; readonly key: string; readonly holder: string }
  | PauseOp
  | LogOp
  | BackfillOp
  | ScheduleOp
  | { readonly kind: 'advance'; readonly ms: number };
